import { ref } from './components.ts';
import type { JsonSchema } from './schema-of.ts';
import { JSON_MEDIA_TYPE } from './media-type.ts';

/** One success an operation answers: its status, headers (component names) and JSON body, if any. */
export interface Success {
  readonly status: string;
  readonly description: string;
  readonly headers: readonly string[];
  readonly schema?: JsonSchema;
}

/**
 * One operation before it is written as OpenAPI: who it is (operationId, tag), what it says, what it
 * takes, and every status it can answer. The error statuses listed here are those the operation
 * itself can answer; the ones every operation can answer are added when it is written.
 */
export interface OperationSpec {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters: readonly JsonSchema[];
  readonly requestBody?: JsonSchema;
  readonly successes: readonly Success[];
  readonly errors: readonly string[];
  /** Served without a token and outside every call limit (health checks): security [] and no 401, 403 or 429. */
  readonly open?: true;
  /** The scopes the bearer token must all hold: the operation's security requirement lists them. */
  readonly scopes?: readonly string[];
  /**
   * Marked deprecated although its version is not (a former path, kept only to redirect): it carries
   * none of a deprecated version's headers (Deprecation, Sunset).
   */
  readonly deprecated?: true;
}

/** Headers every counted response carries: the family's call limit. */
export const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** A success with a JSON body: the serialiser's X-Pretty-Print, the call limit, and these headers. */
export const jsonSuccess = (
  status: string,
  description: string,
  schema: JsonSchema,
  ...headers: string[]
): Success => ({
  status,
  description,
  schema,
  headers: ['X-Pretty-Print', ...RATE_LIMIT, ...headers],
});

/** 304 to a conditional GET: the tags, no body. */
export const NOT_MODIFIED: Success = {
  status: '304',
  description: 'Not Modified: the version the client holds is current.',
  headers: ['ETag', 'E-Tag', ...RATE_LIMIT],
};

/** A list's answers: 200 with a page of `items` (X-Total-Count and Link carry the paging), or 304. */
export const pageSuccesses = (description: string, items: JsonSchema): Success[] => [
  jsonSuccess('200', description, { type: 'array', items }, 'ETag', 'E-Tag', 'X-Total-Count', 'Link'),
  NOT_MODIFIED,
];

/** 204: done, nothing to return. */
export const noContent = (description: string): Success => ({ status: '204', description, headers: [...RATE_LIMIT] });

export const json = (schema: JsonSchema) => ({ [JSON_MEDIA_TYPE]: { schema } });

export const header = (name: string) => ref('parameters', name);

/** A path parameter the server does not look up: any non-empty segment (`why` says what becomes of it). */
export const anySegment = (name: string, why: string): JsonSchema => ({
  name,
  in: 'path',
  required: true,
  description: `Any value: ${why}`,
  schema: { type: 'string', minLength: 1 },
});
