import { operationIds } from './naming.ts';
import { anySegment, header, RATE_LIMIT, type OperationSpec, type Success } from './operation-spec.ts';
import { BODY_ERRORS, COMMON_ERRORS, errorRefEntries, errorRefs, headersOf, OPEN_ROUTE_ERRORS } from './responses.ts';
import type { JsonSchema } from './schema-of.ts';
import { OPEN } from './components.ts';
import { JSON_MEDIA_TYPE } from './media-type.ts';
import { statusKeyed, statusKeyedOf } from './status-keyed.ts';

/** What a deprecated version adds to each success. */
const DEPRECATION_HEADERS = ['Deprecation', 'Sunset'];

function successResponse(success: Success, deprecated: boolean, withBody: boolean): JsonSchema {
  return {
    description: success.description,
    headers: headersOf([...success.headers, ...(deprecated ? DEPRECATION_HEADERS : [])]),
    ...(success.schema === undefined || !withBody
      ? {}
      : { content: { [JSON_MEDIA_TYPE]: { schema: success.schema } } }),
  };
}

/** The error statuses of an operation: its own, the common ones, and the body's when it takes one. */
function errorStatusesOf(spec: OperationSpec): string[] {
  return [
    ...(spec.open === true ? OPEN_ROUTE_ERRORS : COMMON_ERRORS),
    ...(spec.requestBody === undefined ? [] : BODY_ERRORS),
    ...spec.errors,
  ];
}

/**
 * An operation's responses: its successes, then its error statuses. An operation with no 2xx (a GET
 * at a former path, whose one success is its 301) documents its 500 as `default`, the OpenAPI entry
 * for "any status not listed": linters such as Redocly's operation-2xx-response expect every
 * operation to have a 2xx or a default, and an unexpected failure is exactly what a default
 * describes. Every status it can answer is still listed or covered, each with the error body.
 */
function responsesOf(spec: OperationSpec, deprecated: boolean, head: boolean): JsonSchema {
  const responses = statusKeyed<JsonSchema>();
  for (const success of spec.successes) responses[success.status] = successResponse(success, deprecated, !head);
  const redirectOnly = !spec.successes.some((success) => success.status.startsWith('2'));
  for (const [status, reference] of errorRefEntries(errorStatusesOf(spec), head))
    responses[redirectOnly && status === '500' ? 'default' : status] = reference;
  return responses;
}

/**
 * The operation's own security, where it differs from the document's (the bearer scheme): none for
 * an open route; for a scoped one, `x-scopes` lists the scopes the bearer token must all hold.
 * OpenAPI 3.1 would let the bearer requirement list them as roles, but Spectral's
 * oas3-operation-security-defined accepts scopes only from an OAuth 2.0 flow, which needs a token
 * URL this server does not have (the token CLI, or the JWT issuer, hands tokens out).
 */
function securityOf(spec: OperationSpec): JsonSchema {
  if (spec.open === true) return { security: OPEN };
  return spec.scopes === undefined ? {} : { 'x-scopes': [...spec.scopes] };
}

/** An operation spec written as an OpenAPI operation object. */
export function writeOperation(spec: OperationSpec, deprecated: boolean): JsonSchema {
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    ...(deprecated || spec.deprecated === true ? { deprecated: true } : {}),
    ...securityOf(spec),
    parameters: spec.parameters,
    ...(spec.requestBody === undefined ? {} : { requestBody: spec.requestBody }),
    responses: responsesOf(spec, deprecated, false),
  };
}

/**
 * HEAD of a GET operation: the server answers HEAD as GET (same status, same headers, same checks)
 * and sends no body.
 */
export function writeHeadOperation(get: OperationSpec, deprecated: boolean): JsonSchema {
  return {
    operationId: operationIds.head(get.operationId),
    tags: [get.tag],
    summary: `${get.summary} (headers only)`,
    description: `HEAD of ${get.operationId}: the same status and headers as the GET would answer, without a body.`,
    ...(deprecated || get.deprecated === true ? { deprecated: true } : {}),
    ...securityOf(get),
    parameters: get.parameters,
    responses: responsesOf(get, deprecated, true),
  };
}

/**
 * OPTIONS of a path: 204 with Allow naming the methods it answers. Any other method on the path gets
 * 405 Method Not Allowed with the same Allow and the error body. `deprecation`: the path's version is
 * deprecated (its headers too), or the path is a former one (deprecated, no such headers).
 */
export function writeOptionsOperation(
  path: string,
  tag: string,
  methods: readonly string[],
  deprecation: 'version' | 'path' | undefined,
  pathParameters: ReadonlyMap<string, JsonSchema>,
): JsonSchema {
  const deprecated = deprecation === 'version';
  const allowed = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
  return {
    operationId: operationIds.options(path),
    tags: [tag],
    summary: `Methods of ${path}`,
    description: `Answers 204 with Allow: ${allowed.join(', ')}. Any other method on this path gets 405 Method Not Allowed, with the same Allow header and the error body.`,
    ...(deprecation === undefined ? {} : { deprecated: true }),
    parameters: withEveryPathParameter(path, pathParameters),
    responses: statusKeyedOf<JsonSchema>(
      {
        '204': {
          description: 'The methods this path answers.',
          headers: {
            Allow: {
              description: 'The methods this path answers.',
              required: true,
              schema: { type: 'string', const: allowed.join(', ') },
            },
            ...headersOf([...RATE_LIMIT, ...(deprecated ? DEPRECATION_HEADERS : [])]),
          },
        },
      },
      errorRefs(COMMON_ERRORS),
    ),
  };
}

/**
 * OPTIONS takes the path parameters the path's other methods declare (by name: the parameter or its
 * reference), so a generated client types a path's parameters the same on every method. OPTIONS
 * itself does not look them up: a parameter no other method declares is any non-empty segment.
 */
function withEveryPathParameter(path: string, declared: ReadonlyMap<string, JsonSchema>): JsonSchema[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(
    (match) => declared.get(match[1]!) ?? anySegment(match[1]!, 'OPTIONS does not look it up.'),
  );
}
