import { PROPERTY, toProperty } from '../lint/rules/naming.ts';
import { dereference, isObject, member, operationsOf, type JsonObject, type Located } from './document.ts';
import type { OpenApiFinding } from './finding.ts';

/** Members of a schema that hold other schemas (data such as `example` is left alone). */
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'contains'] as const;

/** Every schema of the document, found where OpenAPI puts them, each once (references are not followed). */
function schemasOf(document: JsonObject): Located[] {
  const root = { value: document, at: [] };
  const found: Located[] = [];
  const components = member(root, 'components');
  for (const name of Object.keys(
    isObject(components.value) && isObject(components.value.schemas) ? components.value.schemas : {},
  ))
    found.push(member(member(components, 'schemas'), name));
  const contents = (holder: Located) => {
    const content = member(holder, 'content');
    for (const media of Object.keys(isObject(content.value) ? content.value : {}))
      found.push(member(member(content, media), 'schema'));
  };
  for (const group of ['responses', 'requestBodies'] as const) {
    const items = member(components, group);
    for (const name of Object.keys(isObject(items.value) ? items.value : {})) contents(member(items, name));
  }
  for (const operation of operationsOf(document)) {
    contents(member(operation.node, 'requestBody'));
    const responses = member(operation.node, 'responses');
    for (const code of Object.keys(isObject(responses.value) ? responses.value : {})) contents(member(responses, code));
    const parameters = member(operation.node, 'parameters');
    if (Array.isArray(parameters.value))
      parameters.value.forEach((_, index) => found.push(member(member(parameters, index), 'schema')));
  }
  return found.filter((schema) => isObject(schema.value));
}

/** A schema and every schema nested in it. */
function walk(schema: Located, visit: (schema: Located) => void): void {
  if (!isObject(schema.value) || schema.value.$ref !== undefined) return;
  visit(schema);
  const properties = member(schema, 'properties');
  for (const name of Object.keys(isObject(properties.value) ? properties.value : {}))
    walk(member(properties, name), visit);
  for (const key of SUBSCHEMAS) walk(member(schema, key), visit);
  for (const key of SUBSCHEMA_LISTS) {
    const list = member(schema, key);
    if (Array.isArray(list.value)) list.value.forEach((_, index) => walk(member(list, index), visit));
  }
}

/** openapi-property-name-case: every property of every schema is lowercase snake_case. */
export function propertyFindings(document: JsonObject): OpenApiFinding[] {
  const findings: OpenApiFinding[] = [];
  for (const schema of schemasOf(document)) {
    walk(schema, (node) => {
      const properties = member(node, 'properties');
      for (const name of Object.keys(isObject(properties.value) ? properties.value : {}).filter(
        (key) => !PROPERTY.test(key),
      )) {
        findings.push({
          rule: 'openapi-property-name-case',
          at: [...properties.at, name],
          message: `property "${name}" is not lowercase snake_case: name it "${toProperty(name) || 'a_name'}"`,
        });
      }
    });
  }
  return findings;
}

const requiredOf = (schema: JsonObject) => new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
const typeIs = (schema: unknown, type: string) =>
  isObject(schema) && (schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type)));

/** What is missing from an error body schema, or nothing. */
function errorBodyProblems(document: JsonObject, schema: Located): string[] {
  const body = dereference(document, schema);
  if (!isObject(body.value)) return ['no schema'];
  const problems: string[] = [];
  const properties = isObject(body.value.properties) ? body.value.properties : {};
  const required = requiredOf(body.value);
  if (
    !typeIs(dereference(document, member(member(body, 'properties'), 'message')).value, 'string') ||
    !required.has('message')
  )
    problems.push('a required string "message"');
  const errors = dereference(document, member(member(body, 'properties'), 'errors'));
  const entry = isObject(errors.value) ? dereference(document, member(errors, 'items')) : undefined;
  const entryRequired = isObject(entry?.value) ? requiredOf(entry.value) : new Set<string>();
  if (!typeIs(errors.value, 'array') || !required.has('errors') || !('errors' in properties))
    problems.push('a required array "errors"');
  else if (!entryRequired.has('code') || !entryRequired.has('message'))
    problems.push('"errors" entries with a required "code" and "message"');
  return problems;
}

/**
 * openapi-error-body: every 4xx and 5xx response of every operation but HEAD carries the conventions' error
 * body (`message`, and `errors` entries with `code` and `message`). Reported once per schema, at it.
 */
export function errorBodyFindings(document: JsonObject): OpenApiFinding[] {
  const findings = new Map<string, OpenApiFinding>();
  // A response to HEAD has no body (HTTP): its errors carry only the status and headers.
  for (const operation of operationsOf(document).filter((candidate) => candidate.method !== 'head')) {
    const responses = member(operation.node, 'responses');
    for (const code of Object.keys(isObject(responses.value) ? responses.value : {}).filter((status) =>
      /^[45]/.test(status),
    )) {
      const response = dereference(document, member(responses, code));
      const content = member(response, 'content');
      const json = Object.keys(isObject(content.value) ? content.value : {}).find((media) =>
        media.toLowerCase().startsWith('application/json'),
      );
      if (json === undefined) {
        findings.set(response.at.join('/'), {
          rule: 'openapi-error-body',
          at: response.at,
          message: `${code} response of ${operation.method.toUpperCase()} ${operation.path} documents no application/json error body; errors carry {"message", "errors": [{"code", "message"}]}`,
        });
        continue;
      }
      const schema = member(member(content, json), 'schema');
      const problems = errorBodyProblems(document, schema);
      const place = dereference(document, schema);
      if (problems.length > 0) {
        findings.set(place.at.join('/'), {
          rule: 'openapi-error-body',
          at: place.at,
          message: `error body of ${code} ${operation.method.toUpperCase()} ${operation.path} lacks ${problems.join(', ')}; the error body is {"message", "errors": [{"code", "message", "field"?, "resource"?}]}`,
        });
      }
    }
  }
  return [...findings.values()];
}
