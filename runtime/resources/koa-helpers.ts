import type { Context } from 'koa';
import { ZodObject, type z, type ZodType } from 'zod';
import { assertIfMatch } from '../caching/index.ts';
import { badRequest } from '../errors/index.ts';
import { requestBody, requestHeader } from '../http/index.ts';
import { setVersionBody, versionTagOf } from '../responses/index.ts';
import { expansionRequested, project, resultFields, stripNulls } from '../representation/index.ts';
import { andThen, type Maybe } from '../storage/index.ts';
import { invalidInput } from './write-input.ts';
import { zodProblems } from './zod-problems.ts';

// The conventions for a hand-written Koa route, the same the generated routes follow. Mount the
// runtime's jsonBody() and errorHandler() (or conventionalResponse()) in front, then use these.

/**
 * The request body parsed by `schema`, typed by it: 400 missing_body without one, else 400 with an
 * entry per problem, each naming its field (missing_field, invalid_field). An object schema is made
 * strict, so a member it does not declare is refused (unknown_field) rather than dropped.
 *
 * @example
 * router.post('/v1/transfers', (ctx) => { const transfer = validBody(ctx, z.object({ amount: z.number().positive() })); ... });
 */
export function validBody<S extends ZodType>(ctx: Context, schema: S, resource = 'body'): z.output<S> {
  const body = requestBody(ctx);
  if (body === undefined) throw badRequest('missing_body', 'this request needs a JSON body', { resource });
  const strict = schema instanceof ZodObject ? (schema.strict() as unknown as S) : schema;
  const parsed = strict.safeParse(body);
  if (!parsed.success) throw invalidInput(zodProblems(parsed.error, resource, body));
  return parsed.data as z.output<S>;
}

/**
 * A resource as the response body, as the conventions say: the members X-Result-Fields names (400
 * unknown_field for a name the resource cannot have; `names` lists them, default its own members),
 * and null members left out. With X-Expansion-Fields: true, `expand` is asked first to inline what
 * the resource refers to (a value now, or a promise of it). Whatever it presents, the response's ETag
 * is the one of the whole resource (responses/version-tag.ts), so checkIfMatch takes it.
 */
export function representResource(
  ctx: Context,
  resource: Record<string, unknown>,
  {
    names = Object.keys(resource),
    expand,
  }: {
    readonly names?: readonly string[];
    readonly expand?: (resource: Record<string, unknown>) => Maybe<Record<string, unknown>>;
  } = {},
): Maybe<Record<string, unknown>> {
  const fields = resultFields(ctx, names);
  const expanding = expand !== undefined && expansionRequested(ctx);
  if (fields !== undefined || expanding) setVersionBody(ctx, stripNulls(resource));
  const expanded = expanding ? expand(resource) : resource;
  return andThen(expanded, (full) => stripNulls(project(full, fields)));
}

/**
 * 412 precondition_failed unless the request's If-Match (when it sends one) names the current version
 * of `current`, the whole resource as a GET without presentation headers gives it (every member,
 * nulls left out, nothing expanded): the tag a GET of it carries under any presentation. Call it
 * before changing the resource.
 */
export function checkIfMatch(ctx: Context, current: Record<string, unknown>): void {
  const header = requestHeader(ctx, 'if-match');
  if (header !== '') assertIfMatch(header, versionTagOf(stripNulls(current)));
}
