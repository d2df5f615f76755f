import type { RuleInfo } from '../lint/diagnostic.ts';

const openapi = (id: string, summary: string, help: string): RuleInfo => ({
  id,
  severity: 'error',
  summary,
  help,
  scope: 'openapi',
});

/** The rules of `lint --openapi FILE`: the conventions as an OpenAPI document shows them. */
export const OPENAPI_RULES: readonly RuleInfo[] = [
  openapi(
    'openapi-syntax',
    'the document parses as JSON or YAML and is an OpenAPI 3 document',
    'Fix the syntax error at the position given; the document needs an openapi version and a paths object.',
  ),
  openapi(
    'openapi-path-family',
    'every path belongs to a family: /{version}/..., /services/{version}/... or /settings/{version}/...',
    'Begin resource paths with the version (/v1/orders), service paths with /services/v1/ and setting paths with /settings/v1/.',
  ),
  openapi(
    'openapi-path-version',
    'the version segment is v1, v2, ... in its place',
    'Put the version where the family wants it, named v1, v2, ...',
  ),
  openapi(
    'openapi-path-case',
    'path segments are lowercase, words joined with hyphens',
    'Write path segments in lowercase with hyphens (trade-orders); no underscores or capitals.',
  ),
  openapi(
    'openapi-plural-collection',
    'collection segments of resource paths are plural',
    'Name a collection by its plural (/v1/orders/{order_id}).',
  ),
  openapi(
    'openapi-nesting-depth',
    'resources nest at most two levels; service and setting names at most two segments',
    'Turn the deeper condition into a query parameter.',
  ),
  openapi(
    'openapi-aggregate-parent',
    'an aggregate is reachable only under its parent',
    'Remove the top-level path of a resource that is an aggregate of another.',
  ),
  openapi(
    'openapi-property-name-case',
    'schema property names are lowercase snake_case',
    'Rename the property: lowercase letters and digits, words joined with underscores.',
  ),
  openapi(
    'openapi-error-body',
    'error responses (4xx, 5xx) carry the error body: message, and errors[] with code and message',
    'Give every 4xx and 5xx response with a body a schema with a required string message and a required array errors of objects with required code and message.',
  ),
  openapi(
    'openapi-content-type',
    'JSON bodies are application/json (charset UTF-8)',
    'Declare request and response bodies as application/json (optionally ;charset=UTF-8).',
  ),
  openapi(
    'openapi-etag-header',
    'a 200 answer to GET documents ETag or E-Tag',
    'Document the ETag (or E-Tag) response header on the 200 response of every GET.',
  ),
  openapi(
    'openapi-rate-limit-headers',
    'answers document X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset, and 429 exists',
    'Document the three X-RateLimit-* headers on success responses and a 429 response on every operation.',
  ),
  openapi(
    'openapi-bearer-security',
    'calls are authorized with an HTTP bearer scheme, never a credential in the URL',
    'Declare an http bearer security scheme and require it (globally or per operation); no apiKey in the query.',
  ),
];
