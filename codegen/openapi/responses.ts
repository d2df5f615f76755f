import { ref } from './components.ts';
import type { JsonSchema } from './schema-of.ts';
import { JSON_MEDIA_TYPE } from './media-type.ts';
import { statusKeyed } from './status-keyed.ts';

/**
 * What each error status means, as the document says it. A status is documented on an operation
 * only when that operation can answer it (see `operations.ts`); adding a status the runtime learns to
 * answer is one line here and one in the operations that can answer it.
 */
export const ERROR_MEANINGS: Readonly<Record<string, string>> = {
  '400': 'Bad Request: a parameter, header, identifier or field is missing or wrongly formatted (the entry names it).',
  '401': 'Unauthorized: no credential, or an invalid one.',
  '403': 'Forbidden: token expired, or client refused.',
  '404': 'Not Found: no resource with this identifier.',
  '406': 'Not Acceptable: Accept excludes application/json.',
  '408': "Request Timeout: the headers or the body did not arrive within the server's limit; the connection is closed.",
  '409':
    'Conflict: a duplicate value, the resource is still referred to, or a business rule found a conflict with other data.',
  '412': 'Precondition Failed: If-Match names an older version; nothing was written.',
  '413': 'Payload Too Large: the body is over the size limit.',
  '415': 'Unsupported Media Type: the body is not JSON.',
  '417': 'Expectation Failed: an Expect header other than 100-continue; the connection is closed.',
  '422': 'Unprocessable Entity: a reference to a resource that does not exist, or a business rule refused the write.',
  '423': 'Locked: the job is running.',
  '429': 'Too Many Requests: over the call limit of this path family.',
  '431':
    'Request Header Fields Too Large: the request headers are larger than the server accepts; the connection is closed.',
  '500': 'Internal Server Error.',
  '501': 'Not Implemented: declared but not implemented yet.',
  '503':
    'Service Unavailable: the server is shutting down; on search, the query ran past the time budget and was stopped (search_timeout).',
  '505': 'HTTP Version Not Supported: the server speaks HTTP/1.0 and HTTP/1.1; the connection is closed.',
};

/** Headers an error response always carries besides the body, by status. */
const ERROR_HEADERS: Readonly<Record<string, readonly string[]>> = {
  '401': ['WWW-Authenticate'],
  '429': ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'],
};

const headerRefs = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, ref('headers', name)]));

/**
 * What the connection itself can be refused with, before any route sees the request (the server's
 * client-error handling): an Expect other than 100-continue (417), headers over the size the server
 * accepts (431), an HTTP version it does not speak (505), and a request that does not arrive in time (408).
 */
const CONNECTION_ERRORS = ['408', '417', '431', '505'] as const;

/**
 * The statuses every operation can answer whatever it does: checks that run before any route
 * (User-Agent, token in the URL, Accept, presentation headers, authentication, the call limit), the
 * connection's refusals, and the server's own failures (500, 503 while draining).
 */
export const COMMON_ERRORS = ['400', '401', '403', '406', ...CONNECTION_ERRORS, '429', '500', '503'] as const;

/** The statuses an open route (no token, no call limit) can answer whatever it does. */
export const OPEN_ROUTE_ERRORS = ['400', '406', ...CONNECTION_ERRORS, '500', '503'] as const;

/** Statuses a request with a JSON body can also answer (the body's size and media type). */
export const BODY_ERRORS = ['413', '415'] as const;

/** components.responses: one error response per status, with the error body (and, for HEAD, without it). */
export function errorResponses(): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, description] of Object.entries(ERROR_MEANINGS)) {
    const headers = headerRefs(ERROR_HEADERS[status] ?? []);
    responses[`Error${status}`] = {
      description,
      headers,
      content: { [JSON_MEDIA_TYPE]: { schema: ref('schemas', 'Error') } },
    };
    responses[`HeadError${status}`] = {
      description: `${description} (HEAD: the headers of the error, no body)`,
      headers,
    };
  }
  return responses;
}

/** References to the shared error responses for these statuses, sorted, each once. */
export function errorRefs(statuses: Iterable<string>, head = false): Record<string, JsonSchema> {
  const references = statusKeyed<JsonSchema>();
  for (const status of [...new Set(statuses)].sort())
    references[status] = ref('responses', `${head ? 'HeadError' : 'Error'}${status}`);
  return references;
}

/** errorRefs()' members as entries, for these statuses in this order, made once: most operations share their error statuses. */
const errorRefLists = new Map<string, readonly (readonly [string, JsonSchema])[]>();

/** errorRefs(statuses, head) as its entries, in its order (the same list each time for the same statuses). */
export function errorRefEntries(statuses: readonly string[], head = false): readonly (readonly [string, JsonSchema])[] {
  const key = `${head ? 'head' : 'any'}:${statuses.join(',')}`;
  let entries = errorRefLists.get(key);
  if (entries === undefined) errorRefLists.set(key, (entries = Object.entries(errorRefs(statuses, head))));
  return entries;
}

/** A response's headers from component header names. */
export function headersOf(names: readonly string[]): Record<string, JsonSchema> {
  return headerRefs(names);
}
