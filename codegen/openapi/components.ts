import type { JsonSchema } from './schema-of.ts';

const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;

/** The conventions' one error body. */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['message', 'errors'],
  additionalProperties: false,
  properties: {
    message: { type: 'string', description: 'Error title.' },
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', pattern: '^[a-z][a-z0-9]*(_[a-z0-9]+)*$' },
          message: string,
          resource: string,
          field: string,
          document: { type: 'string', format: 'uri' },
        },
      },
    },
  },
};

/** What POST answers (conventions: creation result). */
export const CREATION_RESULT_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['uri', 'identity', 'created_at', 'links'],
  additionalProperties: false,
  properties: {
    uri: { type: 'string', format: 'uri' },
    identity: { type: ['integer', 'string'] },
    created_at: { type: 'string', format: 'date-time' },
    links: {
      type: 'array',
      items: { type: 'object', required: ['rel', 'href'], additionalProperties: false, properties: { rel: string, href: { type: 'string', format: 'uri' } } },
    },
  },
};

/** A job of a job queue, as GET answers it. */
export const JOB_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['job_id', 'type', 'state', 'uri', 'created_at'],
  additionalProperties: false,
  properties: {
    job_id: integer,
    type: string,
    state: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed'] },
    uri: { type: 'string', format: 'uri' },
    created_at: { type: 'string', format: 'date-time' },
    started_at: { type: 'string', format: 'date-time' },
    finished_at: { type: 'string', format: 'date-time' },
    result: {},
    errors: { $ref: '#/components/schemas/Error/properties/errors' },
  },
};

const header = (description: string, schema: JsonSchema = string, required = false) => ({ description, required, schema });

/** Response headers the runtime sends, by name. */
export const HEADERS: Record<string, JsonSchema> = {
  ETag: header('Version of the data: a strong tag over the exact bytes sent.', string, true),
  'E-Tag': header('The same value as ETag, under the name the conventions use.', string, true),
  'Last-Modified': header('ISO 8601 UTC time of the last change.', { type: 'string', format: 'date-time' }),
  'X-Pretty-Print': header('true when the JSON is formatted for reading.', { type: 'string', enum: ['true', 'false'] }, true),
  'X-RateLimit-Limit': header('Calls allowed in the window.', integer, true),
  'X-RateLimit-Remaining': header('Calls remaining in the window.', integer, true),
  'X-RateLimit-Reset': header('When the window resets, Unix epoch seconds.', integer, true),
  'Retry-After': header('Seconds to wait before calling again.', integer, true),
  Location: header('URI of the new resource or job.', { type: 'string', format: 'uri' }, true),
  Link: header('Paging links (rel first, next, prev), RFC 8288.'),
  'X-Total-Count': header('How many items match, whatever the page.', integer, true),
  'WWW-Authenticate': header('Bearer challenge (RFC 6750).', string, true),
  Allow: header('Methods the path allows.', string, true),
  'Preference-Applied': header('The preference of the request that was applied (RFC 7240): return=minimal.', { type: 'string', enum: ['return=minimal'] }, true),
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Request headers, as reusable parameters. */
export const PARAMETERS: Record<string, JsonSchema> = {
  UserAgent: { name: 'User-Agent', in: 'header', required: true, description: 'Names the client; a request without it is refused (400 missing_user_agent).', schema: { type: 'string', minLength: 1 } },
  ResultFields: { name: 'X-Result-Fields', in: 'header', description: 'Comma-separated field names: only these are returned.', schema: string },
  ExpansionFields: { name: 'X-Expansion-Fields', in: 'header', description: 'true inlines sub-objects instead of their URIs.', schema: { type: 'string', enum: ['true', 'false'] } },
  PrettyPrint: { name: 'X-Pretty-Print', in: 'header', description: 'false asks for compact JSON (pretty is the default).', schema: { type: 'string', enum: ['true', 'false'] } },
  IfNoneMatch: { name: 'If-None-Match', in: 'header', description: 'Tags the client holds: 304 when one is current.', schema: string },
  IfModifiedSince: { name: 'If-Modified-Since', in: 'header', description: 'ISO 8601 or HTTP-date: 304 when not changed since.', schema: string },
  Prefer: { name: 'Prefer', in: 'header', description: 'return=minimal asks for 204 with no body instead of the resource (RFC 7240).', schema: string },
  IfMatch: { name: 'If-Match', in: 'header', description: 'Write only if the resource still has this tag (412 otherwise).', schema: string },
  Limit: { name: 'limit', in: 'query', description: 'Page size.', schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
  Offset: { name: 'offset', in: 'query', description: 'Items to skip.', schema: { type: 'integer', minimum: 0, default: 0 } },
};

/** The call-limit headers every counted response carries. */
export const RATE_LIMIT_HEADERS = { 'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'), 'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining'), 'X-RateLimit-Reset': headerRef('X-RateLimit-Reset') };

/** Headers of every successful JSON response. */
export function successHeaders(...names: string[]): Record<string, JsonSchema> {
  return { 'X-Pretty-Print': headerRef('X-Pretty-Print'), ...RATE_LIMIT_HEADERS, ...Object.fromEntries(names.map((name) => [name, headerRef(name)])) };
}

/** Headers of a successful response of an open route (health): no call limit, so no X-RateLimit-*. */
export function openSuccessHeaders(...names: string[]): Record<string, JsonSchema> {
  return { 'X-Pretty-Print': headerRef('X-Pretty-Print'), ...Object.fromEntries(names.map((name) => [name, headerRef(name)])) };
}

const ERROR_MEANINGS: Record<string, string> = {
  '400': 'Bad Request: a parameter, header or field is missing or wrongly formatted (the entry names it).',
  '401': 'Unauthorized: no credential, or an invalid one.',
  '403': 'Forbidden: token expired, or client refused.',
  '404': 'Not Found: no resource or service at this path.',
  '405': 'Method Not Allowed.',
  '406': 'Not Acceptable: Accept excludes application/json.',
  '408': 'Request Timeout: the headers or the body did not arrive within the server\'s limit; the connection is closed.',
  '409': 'Conflict: duplicate value, or the resource is still referred to.',
  '412': 'Precondition Failed: If-Match names an older version.',
  '413': 'Payload Too Large.',
  '415': 'Unsupported Media Type: the body is not JSON.',
  '422': 'Unprocessable Entity: a reference to a resource that does not exist.',
  '423': 'Locked: the job is running.',
  '429': 'Too Many Requests: over the call limit of this path family.',
  '500': 'Internal Server Error.',
  '501': 'Not Implemented: declared but not implemented yet.',
  '503': 'Service Unavailable: the server is shutting down (or, for readiness, a dependency does not answer).',
};

/** Reusable error responses, each with the error body. */
export function errorResponses(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(ERROR_MEANINGS).map(([status, description]) => {
      const headers: Record<string, JsonSchema> =
        status === '429'
          ? { ...RATE_LIMIT_HEADERS, 'Retry-After': headerRef('Retry-After') }
          : status === '401'
            ? { 'WWW-Authenticate': headerRef('WWW-Authenticate') }
            : status === '405'
              ? { Allow: headerRef('Allow') }
              : {};
      return [`Error${status}`, { description, headers, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }];
    }),
  );
}

/** The error statuses every route can answer, whatever it does. */
export const COMMON_ERRORS = ['400', '401', '403', '406', '408', '429', '500', '503'];

/** The error statuses an open route (no token, no call limit) can answer. */
export const OPEN_ROUTE_ERRORS = ['400', '406', '408', '500', '503'];
