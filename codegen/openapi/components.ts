import type { JsonSchema } from './schema-of.ts';

const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;

type ComponentKind = 'schemas' | 'responses' | 'parameters' | 'headers';

/** The references made so far, by kind and then by name: found without building their text again. */
const references: Record<ComponentKind, Map<string, { readonly $ref: string }>> = {
  schemas: new Map(),
  responses: new Map(),
  parameters: new Map(),
  headers: new Map(),
};

/**
 * A reference to a component. The same frozen object for the same component: a document of 1,000
 * collections holds hundreds of thousands of references, and one object each made a large share of
 * what its garbage collector had to copy. A cache of values nobody can change, shared by every document.
 */
export const ref = (kind: ComponentKind, name: string) => {
  const named = references[kind];
  let reference = named.get(name);
  if (reference === undefined) named.set(name, (reference = Object.freeze({ $ref: `#/components/${kind}/${name}` })));
  return reference;
};

/** One entry of the error body's `errors` array. */
export const ERROR_ENTRY_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'One failure: a lower_snake_case code, a message, and the field or resource it concerns.',
  required: ['code', 'message'],
  additionalProperties: false,
  properties: {
    code: {
      type: 'string',
      pattern: '^[a-z][a-z0-9]*(_[a-z0-9]+)*$',
      description: 'The key words of the failure, lowercase, joined with underscores.',
    },
    message: { type: 'string', description: 'What went wrong, for a person.' },
    resource: { type: 'string', description: 'The resource concerned.' },
    field: { type: 'string', description: 'The property or parameter concerned (dotted for nested members).' },
    document: { type: 'string', format: 'uri', description: 'Address of documentation.' },
  },
};

/** The conventions' one error body. */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The one error body of every 4xx and 5xx answer.',
  required: ['message', 'errors'],
  additionalProperties: false,
  properties: {
    message: { type: 'string', description: 'Error title.' },
    // At most 20 entries: past 19, the last one is more_errors, counting the rest (runtime MAX_ERROR_ENTRIES).
    errors: { type: 'array', minItems: 1, maxItems: 20, items: ref('schemas', 'ErrorEntry') },
  },
};

/**
 * What POST answers (conventions: creation result), for a collection whose identifiers are of
 * `identity`'s type: each collection has its own (`OrderV1Created`), so a generated client types the
 * identity it gets back as the identifier it passes to GET.
 */
export function creationResultSchema(singular: string, identity: 'integer' | 'string'): JsonSchema {
  return {
    ...CREATION_RESULT_SCHEMA,
    description: `What creating ${singular} answers: where it is, its identity, when it was made, and links.`,
    properties: { ...(CREATION_RESULT_SCHEMA.properties as JsonSchema), identity: { type: identity } },
  };
}

const CREATION_RESULT_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'What a create answers: where the new resource is, its identity, when it was made, and links.',
  required: ['uri', 'identity', 'created_at', 'links'],
  additionalProperties: false,
  properties: {
    uri: { type: 'string', format: 'uri' },
    identity: { type: ['integer', 'string'] },
    created_at: { type: 'string', format: 'date-time' },
    links: {
      type: 'array',
      items: {
        type: 'object',
        required: ['rel', 'href'],
        additionalProperties: false,
        properties: { rel: string, href: { type: 'string', format: 'uri' } },
      },
    },
  },
};

/** The states of a job, in the order a job goes through them. */
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed'];

/** A job of a job queue, as GET answers it. */
export const JOB_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'A queued job: its state, and its result or errors once finished.',
  required: ['job_id', 'type', 'state', 'uri', 'created_at'],
  additionalProperties: false,
  properties: {
    job_id: integer,
    type: string,
    state: { type: 'string', enum: JOB_STATES },
    uri: { type: 'string', format: 'uri' },
    created_at: { type: 'string', format: 'date-time' },
    started_at: { type: 'string', format: 'date-time' },
    finished_at: { type: 'string', format: 'date-time' },
    result: { description: 'What the job answered, once it succeeded.' },
    errors: { type: 'array', minItems: 1, items: ref('schemas', 'ErrorEntry'), description: 'Why the job failed.' },
  },
};

const header = (description: string, schema: JsonSchema = string, required = true) => ({
  description,
  required,
  schema,
});

/**
 * Response headers the runtime sends, by name. `required` says the header is always sent where an
 * operation lists it: a header sent only sometimes (Link) is not required.
 */
export const HEADERS: Record<string, JsonSchema> = {
  ETag: header('Version of the data: a strong tag over the exact bytes sent.'),
  'E-Tag': header('The same value as ETag, under the name the conventions use.'),
  'Last-Modified': header('ISO 8601 UTC time of the last change.', { type: 'string', format: 'date-time' }),
  'X-Pretty-Print': header('true when the JSON is formatted for reading.', { type: 'string', enum: ['true', 'false'] }),
  'X-RateLimit-Limit': header('Calls allowed in the window.', integer),
  'X-RateLimit-Remaining': header('Calls remaining in the window.', integer),
  'X-RateLimit-Reset': header('When the window resets, Unix epoch seconds.', integer),
  'Retry-After': header('Seconds to wait before calling again.', integer),
  Location: header('URI of the new resource or job.', { type: 'string', format: 'uri' }),
  Link: header('Paging links (rel first, next, prev), RFC 8288.', string, false),
  'X-Total-Count': header('How many items match, whatever the page.', integer),
  'WWW-Authenticate': header('Bearer challenge (RFC 6750).'),
  Allow: header('The methods this path answers, comma-separated; any other method gets 405 with the same Allow.'),
  Deprecation: header('This version is deprecated: since when, as @ and Unix epoch seconds (RFC 9745).'),
  Sunset: header('HTTP-date after which this version may stop answering (RFC 8594).'),
  'Preference-Applied': header('The preference of the request that was applied (RFC 7240).', {
    type: 'string',
    enum: ['return=minimal'],
  }),
};

/**
 * How a caller identifies itself: the bearer token, and the User-Agent header every request must
 * send. User-Agent is stated as a security requirement rather than a parameter of each operation:
 * what a client sets once (as it sets its token), not an argument of every call, so generic client
 * generators (openapi-typescript, @hey-api/openapi-ts) do not ask for it per call.
 */
export const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'Authorization: Bearer <ACCESS_TOKEN>, issued by `npm run -s token -- issue`; never in the URL.',
  },
  user_agent: {
    type: 'apiKey',
    in: 'header',
    name: 'User-Agent',
    description:
      'Every request names its client in User-Agent (any non-empty value); a request without it is refused with 400 missing_user_agent, before any other check.',
  },
};

/** What every operation requires (the document's `security`): the bearer token and a User-Agent. */
export const AUTHENTICATED: JsonSchema[] = [{ bearer: [], user_agent: [] }];

/** What an operation open to anyone (a health probe) still requires: a User-Agent, no token. */
export const OPEN: JsonSchema[] = [{ user_agent: [] }];

/** Request headers, as reusable parameters. */
export const PARAMETERS: Record<string, JsonSchema> = {
  ResultFields: {
    name: 'X-Result-Fields',
    in: 'header',
    description:
      'Comma-separated field names: only these are returned (an unknown name gets 400), even those the representation otherwise always has.',
    schema: string,
  },
  ExpansionFields: {
    name: 'X-Expansion-Fields',
    in: 'header',
    description: 'true inlines sub-objects instead of their URIs.',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
  PrettyPrint: {
    name: 'X-Pretty-Print',
    in: 'header',
    description: 'false asks for compact JSON (pretty is the default).',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description: 'Tags the client holds: 304 when one is current.',
    schema: string,
  },
  IfModifiedSince: {
    name: 'If-Modified-Since',
    in: 'header',
    description: 'ISO 8601 or HTTP-date: 304 when not changed since.',
    schema: string,
  },
  Prefer: {
    name: 'Prefer',
    in: 'header',
    description:
      'return=minimal asks for 204 with no body instead of the resource; return=representation, the default, for the resource (RFC 7240).',
    schema: string,
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    description: 'Write only if the resource still has this tag (412 otherwise); * matches any current version.',
    schema: string,
  },
  Limit: {
    name: 'limit',
    in: 'query',
    description: 'Page size.',
    schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
  },
  Offset: {
    name: 'offset',
    in: 'query',
    description: 'Items to skip.',
    schema: { type: 'integer', minimum: 0, default: 0 },
  },
};
