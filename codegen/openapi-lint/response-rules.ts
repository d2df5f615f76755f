import {
  dereference,
  headerNames,
  isDeclaredPublic,
  isObject,
  member,
  operationsOf,
  type JsonObject,
} from './document.ts';
import type { OpenApiFinding } from './finding.ts';

const JSON_MEDIA = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * openapi-content-type, openapi-etag-header, openapi-rate-limit-headers: the headers the conventions
 * document. Bodies are application/json (charset UTF-8); a GET's 200 carries ETag or E-Tag; success
 * responses carry the X-RateLimit-* headers and every operation can answer 429 (but one declared
 * public with `security: []`, which no limit counts). Shared components are reported once, at the
 * component.
 */
export function responseFindings(document: JsonObject): OpenApiFinding[] {
  const findings = new Map<string, OpenApiFinding>();
  const add = (finding: OpenApiFinding) => findings.set(`${finding.rule} ${finding.at.join('/')}`, finding);
  for (const operation of operationsOf(document)) {
    const name = `${operation.method.toUpperCase()} ${operation.path}`;
    const bodies = [dereference(document, member(operation.node, 'requestBody'))];
    const responses = member(operation.node, 'responses');
    const codes = Object.keys(isObject(responses.value) ? responses.value : {});
    for (const code of codes) bodies.push(dereference(document, member(responses, code)));
    for (const body of bodies) {
      const content = member(body, 'content');
      for (const media of Object.keys(isObject(content.value) ? content.value : {}).filter(
        (type) => !JSON_MEDIA.test(type),
      )) {
        add({
          rule: 'openapi-content-type',
          at: [...content.at, media],
          message: `${name} documents a body of type ${media}; bodies are JSON: application/json;charset=UTF-8`,
        });
      }
    }
    // Call limits count the API's calls; a probe declared public (`security: []`) is not one of them.
    const counted = !isDeclaredPublic(operation, document);
    if (counted && !codes.includes('429'))
      add({
        rule: 'openapi-rate-limit-headers',
        at: responses.at,
        message: `${name} documents no 429 response; calls are rate limited: answer 429 with the X-RateLimit-* headers`,
      });
    for (const code of codes.filter((status) => /^2/.test(status))) {
      const response = dereference(document, member(responses, code));
      const headers = headerNames(response);
      const missing = RATE_LIMIT_HEADERS.filter((header) => !headers.has(header.toLowerCase()));
      if (counted && missing.length > 0)
        add({
          rule: 'openapi-rate-limit-headers',
          at: response.at,
          message: `${code} response of ${name} does not document ${missing.join(', ')}; every counted response carries the rate-limit headers`,
        });
      if (operation.method === 'get' && code === '200' && !headers.has('etag') && !headers.has('e-tag')) {
        add({
          rule: 'openapi-etag-header',
          at: response.at,
          message: `200 response of ${name} documents neither ETag nor E-Tag; a response marks the data version for If-None-Match`,
        });
      }
    }
  }
  return [...findings.values()];
}
