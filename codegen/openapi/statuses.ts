import type { ResolvedCollection, ResolvedModel } from '../model/index.ts';
import type { RouteDescriptor } from '../routes/index.ts';
import { ref } from './components.ts';
import { pascalOf } from '../emit/names.ts';
import { anySegment, header, jsonSuccess, RATE_LIMIT, type OperationSpec, type Success } from './operation-spec.ts';
import type { JsonSchema } from './schema-of.ts';

// The successes of the statuses beyond the conventions' own (102, 201 on PUT, 202 for asynchronous operations,
// 204 on Prefer: return=minimal, 301, 303), one small function each, so each operation adds exactly
// the ones its route can answer.

/** The body of every redirect (301, 303): one link object, whose href is also the Location. */
export const LINK_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['rel', 'href'],
  additionalProperties: false,
  properties: { rel: { type: 'string' }, href: { type: 'string', format: 'uri' } },
};

/** PUT and PATCH with `Prefer: return=minimal`: 204, no body, Preference-Applied. */
export const minimalReturn = (): Success => ({
  status: '204',
  description: 'No Content: written; the request asked for no representation (Prefer: return=minimal).',
  headers: [...RATE_LIMIT, 'Preference-Applied'],
});

/** A PUT or PATCH that can answer 204 on Prefer: return=minimal: the Prefer parameter and the 204. */
export function withMinimalReturn(spec: OperationSpec): OperationSpec {
  if (spec.successes.length === 0) return spec;
  return {
    ...spec,
    parameters: [...spec.parameters, header('Prefer')],
    successes: [...spec.successes, minimalReturn()],
  };
}

/** PUT to an identifier not taken yet, where clients assign identifiers: 201 with the collection's creation result. */
export const createdByPut = (representation: string): Success =>
  jsonSuccess(
    '201',
    'Created: nothing had this identifier; the resource is created at this path.',
    ref('schemas', `${representation}Created`),
    'Location',
  );

/** A collection operation declared asynchronous answers 202 with the job instead of its own success. */
export function queuedIfAsynchronous(
  collection: ResolvedCollection,
  operation: string,
  spec: OperationSpec,
): OperationSpec {
  if (spec.successes.length === 0 || !collection.asynchronous?.operations.some((name) => name === operation))
    return spec;
  const accepted = jsonSuccess(
    '202',
    'Accepted: checked, and queued as a job; Location names the job, whose GET tells its state (303 to the resource once a create, replace or update has succeeded).',
    ref('schemas', 'Job'),
    'Location',
  );
  // The write's own refusals (409, 422) come later, in the job's errors.
  return {
    ...spec,
    parameters: spec.parameters.filter((parameter) => parameter.$ref !== '#/components/parameters/Prefer'),
    successes: [accepted],
    errors: spec.errors.filter((status) => status === '404' || status === '412'),
  };
}

const redirect = (status: '301' | '303', description: string): Success =>
  jsonSuccess(status, description, ref('schemas', 'Link'), 'Location');

/**
 * GET at a former path: 301 to the current one (operation tag and id from the declaration). An
 * identifier in the path is the same parameter as at the current path (`identifiers`, by component
 * name), so a generated client types it the same at both.
 */
export function movedOperation(
  route: RouteDescriptor & { handler: { kind: 'moved' } },
  identifiers: Readonly<Record<string, JsonSchema>>,
): OperationSpec {
  const { from, to } = route.handler;
  const parameters = [...route.path.matchAll(/:([a-z0-9_]+)/g)].map((match) =>
    identifiers[pascalOf(match[1]!)] !== undefined
      ? ref('parameters', pascalOf(match[1]!))
      : anySegment(match[1]!, 'it is carried over to the current path.'),
  );
  const suffix = route.path
    .slice(from.length)
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) =>
      segment === '(list)'
        ? 'ListForm'
        : segment.startsWith(':')
          ? `By${pascalOf(segment.slice(1))}`
          : pascalOf(segment),
    )
    .join('');
  return {
    operationId: `moved${pascalOf(
      from
        .split('/')
        .filter((segment) => segment !== '' && !/^v[0-9]+$/.test(segment))
        .join('-'),
    )}${suffix}`,
    tag: route.declaration,
    summary: `Moved to ${to}`,
    description: `This path is now ${to}: 301 with Location and the link (rel "self") naming the same path there, with the same query. Writes here are not redirected (405). An unexpected failure (500) is documented as the \`default\` response, since this operation has no 2xx.`,
    parameters: [...parameters],
    successes: [redirect('301', 'Moved Permanently: Location and the link body name the current path.')],
    errors: [],
    deprecated: true,
  };
}

/** The collections a finished job of a queue may have produced a resource of: its types' and its queued operations'. */
export function producedCollections(
  model: ResolvedModel,
  queue: string,
  produces: Readonly<Record<string, string>>,
): string[] {
  const queuedHere = model.collections.filter(
    (collection) =>
      collection.asynchronous?.queue === queue && collection.asynchronous.operations.some((name) => name !== 'delete'),
  );
  return [...new Set([...Object.values(produces), ...queuedHere.map((collection) => collection.name)])].sort();
}

/** GET of a job: 303 to what a finished job produced, when any of its types (or queued operations) produces a resource. */
export function seeOtherResult(collections: readonly string[]): Success[] {
  if (collections.length === 0) return [];
  return [
    redirect(
      '303',
      `See Other: the job has finished and produced a resource (of ${collections.join(', ')}); Location and the link (rel "result") name it.`,
    ),
  ];
}

/**
 * A custom service operation may run long: `102 Processing` interim responses before the final one,
 * the first after its own `processingAfterMs`, or the server's PROCESSING_AFTER_MS.
 */
export function processing(afterMs: number | undefined): Success {
  const first = afterMs === undefined ? 'PROCESSING_AFTER_MS (default 1,000 ms)' : `${afterMs} ms`;
  return {
    status: '102',
    description: `Processing: an interim response, sent after ${first} of work and then every PROCESSING_INTERVAL_MS until the final response; no body.`,
    headers: [],
  };
}
