import { isDeclaredPublic, isObject, member, operationsOf, type JsonObject } from './document.ts';
import type { OpenApiFinding } from './finding.ts';

const CREDENTIAL_PARAMETERS = new Set(['access_token', 'token', 'api_key', 'apikey', 'key', 'bearer', 'auth']);

/**
 * openapi-bearer-security: an HTTP bearer scheme is declared and required (globally, or by each
 * operation but those declared public with `security: []`); no scheme or parameter takes a
 * credential from the URL.
 */
export function securityFindings(document: JsonObject): OpenApiFinding[] {
  const findings: OpenApiFinding[] = [];
  const components = member({ value: document, at: [] }, 'components');
  const schemes = member(components, 'securitySchemes');
  const declared = isObject(schemes.value) ? schemes.value : {};
  const bearer = new Set(
    Object.entries(declared)
      .filter(
        ([, scheme]) =>
          isObject(scheme) &&
          String(scheme.type).toLowerCase() === 'http' &&
          String(scheme.scheme).toLowerCase() === 'bearer',
      )
      .map(([name]) => name),
  );
  for (const [name, scheme] of Object.entries(declared)) {
    if (isObject(scheme) && scheme.type === 'apiKey' && scheme.in === 'query') {
      findings.push({
        rule: 'openapi-bearer-security',
        at: [...schemes.at, name],
        message: `security scheme "${name}" takes the credential from the query string; a token is sent in the Authorization header only (Bearer <ACCESS_TOKEN>)`,
      });
    }
  }
  // A scheme reading the query string is the cause to report; a missing bearer scheme only follows from it.
  if (bearer.size === 0 && findings.length === 0) {
    const at = isObject(schemes.value) ? schemes.at : isObject(components.value) ? components.at : ['openapi'];
    findings.push({
      rule: 'openapi-bearer-security',
      at,
      message:
        'no HTTP bearer security scheme is declared; calls are authorized with Authorization: Bearer <ACCESS_TOKEN>: declare { "type": "http", "scheme": "bearer" }',
    });
  }
  if (bearer.size === 0) return findings;
  const requiresBearer = (security: unknown) =>
    Array.isArray(security) &&
    security.some((requirement) => isObject(requirement) && Object.keys(requirement).some((name) => bearer.has(name)));
  const global = requiresBearer(document.security);
  for (const operation of operationsOf(document)) {
    const own = isObject(operation.node.value) ? operation.node.value.security : undefined;
    if (!isDeclaredPublic(operation, document) && (own === undefined ? !global : !requiresBearer(own))) {
      findings.push({
        rule: 'openapi-bearer-security',
        at: own === undefined ? operation.node.at : [...operation.node.at, 'security'],
        message: `${operation.method.toUpperCase()} ${operation.path} does not require the bearer scheme; every call carries Authorization: Bearer <ACCESS_TOKEN>`,
      });
    }
    const parameters = member(operation.node, 'parameters');
    (Array.isArray(parameters.value) ? parameters.value : []).forEach((parameter, index) => {
      if (
        isObject(parameter) &&
        parameter.in === 'query' &&
        CREDENTIAL_PARAMETERS.has(String(parameter.name).toLowerCase())
      ) {
        findings.push({
          rule: 'openapi-bearer-security',
          at: [...parameters.at, index, 'name'],
          on: 'value',
          message: `query parameter "${String(parameter.name)}" of ${operation.method.toUpperCase()} ${operation.path} carries a credential in the URL; a token is sent in the Authorization header only`,
        });
      }
    });
  }
  return findings;
}
