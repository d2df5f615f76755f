import { RATE_LIMIT_HEADERS, successHeaders } from './components.ts';
import type { JsonSchema } from './schema-of.ts';

// The responses of the statuses issue 17 added, one small function each, so each operation's
// builder adds exactly the ones its route can answer.

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** PUT and PATCH with `Prefer: return=minimal`: 204, no body, `Preference-Applied`. */
export function minimalReturn(): Record<string, JsonSchema> {
  return {
    '204': {
      description: 'No Content: written; the request asked for no representation (Prefer: return=minimal).',
      headers: { ...RATE_LIMIT_HEADERS, 'Preference-Applied': headerRef('Preference-Applied') },
    },
  };
}

/** PUT to an identifier not taken yet, where clients assign identifiers: 201, the creation result, Location. */
export function createdByPut(): Record<string, JsonSchema> {
  return {
    '201': {
      description: 'Created: nothing had this identifier; the resource is created at this path.',
      headers: successHeaders('Location'),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreationResult' } } },
    },
  };
}

/** The body of every redirect (301, 303): one link object, whose href is also the Location. */
export const LINK_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['rel', 'href'],
  additionalProperties: false,
  properties: { rel: { type: 'string' }, href: { type: 'string', format: 'uri' } },
};

const redirect = (description: string): JsonSchema => ({
  description,
  headers: { ...RATE_LIMIT_HEADERS, Location: headerRef('Location') },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Link' } } },
});

/** GET at a former path: 301 to the current one, Location and a link body `{"rel": "self", "href"}`. */
export function movedPermanently(to: string): Record<string, JsonSchema> {
  return { '301': redirect(`Moved Permanently: this path is now ${to}...; Location and the link (rel "self") name the same path there, with the same query.`) };
}

/** GET of a finished job that produced a resource: 303 to it, Location and a link body `{"rel": "result", "href"}`. */
export function seeOtherResult(collections: readonly string[]): Record<string, JsonSchema> {
  if (collections.length === 0) return {};
  return { '303': redirect(`See Other: the job has finished and produced a resource (of ${collections.join(', ')}); Location and the link (rel "result") name it.`) };
}

/**
 * An operation whose handler may run long: `102 Processing` interim responses before the final one,
 * the first after `afterMs` (the operation's own), or the server's PROCESSING_AFTER_MS.
 */
export function processing(afterMs: number | undefined): Record<string, JsonSchema> {
  const first = afterMs === undefined ? 'PROCESSING_AFTER_MS (default 1,000 ms)' : `${afterMs} ms`;
  return { '102': { description: `Processing: an interim response, sent after ${first} of work and then every PROCESSING_INTERVAL_MS until the final response; no body.` } };
}

/** An asynchronous write: 202, Location of the job, and the job's state. */
export function acceptedAsJob(): Record<string, JsonSchema> {
  return {
    '202': {
      description: 'Accepted: checked, and queued as a job; Location names the job, whose GET tells its state (303 to the resource once a create, replace or update has succeeded).',
      headers: successHeaders('Location'),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } },
    },
  };
}
