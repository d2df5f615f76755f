import { bodyExampleOf, responseExampleOf } from './body-examples.ts';
import type { JsonSchema } from './schema-of.ts';
import { JSON_MEDIA_TYPE } from './media-type.ts';
import { statusKeyedOf } from './status-keyed.ts';

/** What a time parameter is given as its example: any instant in the conventions' UTC form. */
const EXAMPLE_TIME = '2026-01-01T09:30:00Z';

/**
 * Examples of the shared request headers, each a value the server accepts and that leaves the
 * operation's first success as it is: tools that call an API from its document alone (Dredd) send
 * every example, optional headers included, and expect that success. `If-Match: *` matches any
 * current version (a tag made up would get 412); `Prefer: return=representation` asks for what is
 * answered anyway (return=minimal would turn a 200 into a 204).
 */
const HEADER_EXAMPLES: Readonly<Record<string, string>> = {
  'If-Match': '*',
  'If-None-Match': '"2f8e1c07"',
  'If-Modified-Since': EXAMPLE_TIME,
  Prefer: 'return=representation',
};

/**
 * An example for a parameter that declares none, from its schema: the first of an enum, a default,
 * the lowest number allowed, a UTC time, a word for a plain string. Tools that call an API from its
 * document alone (Dredd, Prism's examples, the docs page's Try it out) need one for every parameter.
 */
export function exampleOf(parameter: JsonSchema): unknown {
  const named = HEADER_EXAMPLES[String(parameter.name)];
  if (parameter.in === 'header' && named !== undefined) return named;
  const schema = (parameter.schema ?? {}) as JsonSchema;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    default:
      if (schema.format === 'date-time') return EXAMPLE_TIME;
      if (parameter.in === 'path') return 'blue-mug';
      return 'apples';
  }
}

/** Gives every parameter object that has no example one (references are given theirs at their component). */
export function withParameterExamples(parameters: readonly JsonSchema[]): JsonSchema[] {
  return parameters.map((parameter) =>
    typeof parameter.$ref === 'string' || parameter.example !== undefined || parameter.examples !== undefined
      ? parameter
      : { ...parameter, example: exampleOf(parameter) },
  );
}

type Operations = Record<string, Record<string, JsonSchema>>;

/**
 * The document with an example for every parameter and every JSON request body: each shared parameter component gets one, and
 * an operation's X-Result-Fields (whose valid names differ per resource) becomes its own parameter
 * whose example names the members of what the operation answers.
 */
export function withExamples(
  paths: Operations,
  schemas: Record<string, JsonSchema>,
  shared: Record<string, JsonSchema>,
) {
  const parameters = Object.fromEntries(
    Object.entries(shared).map(([name, parameter]) => [name, withParameterExamples([parameter])[0]!]),
  );
  const resultFields = (operation: JsonSchema): JsonSchema | undefined => {
    const members = membersAnswered(operation, schemas);
    return members === undefined ? undefined : { ...shared.ResultFields, example: members };
  };
  const withOperationParameterExamples = (operation: JsonSchema): JsonSchema =>
    Array.isArray(operation.parameters)
      ? {
          ...operation,
          parameters: withParameterExamples(
            (operation.parameters as JsonSchema[]).map((parameter) =>
              parameter.$ref === '#/components/parameters/ResultFields'
                ? (resultFields(operation) ?? parameter)
                : parameter,
            ),
          ),
        }
      : operation;
  // Parameters, then the request body, then each success's body.
  const exemplified = (operation: JsonSchema): JsonSchema =>
    withResponseExamples(withBodyExample(withOperationParameterExamples(operation), schemas), schemas);
  const examplePaths = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, exemplified(operation)])),
    ]),
  );
  return { paths: examplePaths, parameters };
}

/** The operation with an example of each success's JSON body that has none (responseExampleOf). */
function withResponseExamples(operation: JsonSchema, schemas: Record<string, JsonSchema>): JsonSchema {
  const responses = operation.responses as Record<string, JsonSchema> | undefined;
  if (responses === undefined) return operation;
  // Copied only when a success gains an example: most of an operation's responses are references.
  let exemplified: Record<string, JsonSchema> | undefined;
  for (const [status, response] of Object.entries(responses)) {
    const media = (response.content as Record<string, JsonSchema> | undefined)?.[JSON_MEDIA_TYPE];
    const schema = media?.schema as JsonSchema | undefined;
    // A body of any JSON (a schema that says nothing) has no member every answer holds: no example.
    const saysNothing = schema === undefined || Object.keys(schema).length === 0;
    if (!status.startsWith('2') || saysNothing || media?.example !== undefined) continue;
    const example = responseExampleOf(schema, schemas);
    exemplified ??= statusKeyedOf(responses);
    exemplified[status] = {
      ...response,
      content: { ...(response.content as object), [JSON_MEDIA_TYPE]: { ...media, example } },
    };
  }
  return exemplified === undefined ? operation : { ...operation, responses: exemplified };
}

/** The operation with an example of its JSON request body, when it takes one that has none. */
function withBodyExample(operation: JsonSchema, schemas: Record<string, JsonSchema>): JsonSchema {
  const body = operation.requestBody as JsonSchema | undefined;
  const media = (body?.content as Record<string, JsonSchema> | undefined)?.[JSON_MEDIA_TYPE];
  if (body === undefined || media?.schema === undefined || media.example !== undefined) return operation;
  const example = bodyExampleOf(media.schema as JsonSchema, schemas);
  return { ...operation, requestBody: { ...body, content: { [JSON_MEDIA_TYPE]: { ...media, example } } } };
}

/**
 * The members the JSON an operation's 200 answers always has (of each item, for a list; of the first
 * choice, for one of several), comma-separated: an answer selected by them still holds every member
 * its schema requires. Its first member, when it requires none.
 */
function membersAnswered(operation: JsonSchema, schemas: Record<string, JsonSchema>): string | undefined {
  const responses = (operation.responses ?? {}) as Record<string, JsonSchema>;
  let schema = (responses['200']?.content as JsonSchema | undefined)?.[JSON_MEDIA_TYPE] as JsonSchema | undefined;
  schema = schema?.schema as JsonSchema | undefined;
  for (let depth = 0; schema !== undefined && depth < 4; depth += 1) {
    if (typeof schema.$ref === 'string') schema = schemas[schema.$ref.replace('#/components/schemas/', '')];
    else if (schema.type === 'array') schema = schema.items as JsonSchema | undefined;
    else if (Array.isArray(schema.anyOf)) schema = schema.anyOf[0] as JsonSchema;
    else {
      const required = (schema.required ?? []) as string[];
      const names = required.length > 0 ? required : Object.keys((schema.properties ?? {}) as JsonSchema).slice(0, 1);
      return names.length === 0 ? undefined : names.join(',');
    }
  }
  return undefined;
}
