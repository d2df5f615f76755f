import type { JsonSchema } from './schema-of.ts';

/**
 * Times in a body's example: successive hours from a moment far in the future, so that a rule such
 * as "a reservation cannot start in the past" or "ends after it starts" (a body's later time field
 * is its end) holds for the example as written.
 */
const FIRST_EXAMPLE_TIME = Date.UTC(2099, 0, 1, 9, 0, 0);
const HOUR = 3_600_000;

/** A word for a plain string, fitted to its lengths. */
const WORD = 'apples';

/** Examples of the string formats a write schema uses, each one the server accepts. */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  email: 'ann@example.com',
  uri: 'https://example.com/',
  date: '2099-01-01',
};

/** The first alternative of a pattern that lists its values (`^(list|grid)$`), if it is one. */
function listedValue(pattern: string): string | undefined {
  return /^\^\(([A-Za-z0-9_ -]+)(\|[A-Za-z0-9_ |-]+)*\)\$$/.exec(pattern)?.[1];
}

/**
 * An example request body for a schema, as a client would write it: an object's required members
 * (or, when none is required, as in a partial update, its first member); for each value its `const`,
 * first enum value, default, an example of its format, the lowest number allowed, one item for an
 * array. Of a choice (`anyOf`, `oneOf`), a number before a string: a reference written as a URI or an
 * id takes the id, which needs no base URL. Tools that call an API from its document alone (Dredd,
 * the docs page's Try it out) send it as written.
 */
export function bodyExampleOf(schema: JsonSchema, schemas: Readonly<Record<string, JsonSchema>>): unknown {
  return exampleFor(schema, schemas, 'request');
}

/**
 * An example of a success's JSON body, holding what every such answer holds: an object's required
 * members only (its optional ones may be left out, by X-Result-Fields or because they are unset),
 * and of a choice the first that is not an object (a reference is answered as a URI unless
 * X-Expansion-Fields asks for more). Tools that check answers against a document's examples (Dredd)
 * then ask for no member an answer may leave out.
 */
export function responseExampleOf(schema: JsonSchema, schemas: Readonly<Record<string, JsonSchema>>): unknown {
  return exampleFor(schema, schemas, 'response');
}

function exampleFor(
  schema: JsonSchema,
  schemas: Readonly<Record<string, JsonSchema>>,
  direction: 'request' | 'response',
): unknown {
  let times = 0;
  const nextTime = () => new Date(FIRST_EXAMPLE_TIME + HOUR * times++).toISOString().replace('.000Z', 'Z');
  const exampleOf = (node: JsonSchema, depth: number): unknown => {
    if (depth > 8) return null;
    if (typeof node.$ref === 'string') return exampleOf(schemas[node.$ref.split('/').at(-1)!] ?? {}, depth + 1);
    if (node.const !== undefined) return node.const;
    if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
    if (Array.isArray(node.enum)) return node.enum[0];
    if (node.default !== undefined) return node.default;
    const choices = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
    if (choices !== undefined) {
      const preferred =
        direction === 'request'
          ? choices.find((choice) => choice.type === 'integer' || choice.type === 'number')
          : choices.find((choice) => choice.$ref === undefined && choice.type !== 'object');
      return exampleOf(preferred ?? choices[0]!, depth + 1);
    }
    switch (node.type) {
      case 'object': {
        const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
        const required = (node.required ?? []) as string[];
        const names = required.length > 0 || direction === 'response' ? required : Object.keys(properties).slice(0, 1);
        return Object.fromEntries(names.map((name) => [name, exampleOf(properties[name] ?? {}, depth + 1)]));
      }
      case 'array':
        return [exampleOf((node.items ?? {}) as JsonSchema, depth + 1)];
      case 'integer':
      case 'number':
        return typeof node.minimum === 'number' ? node.minimum : 1;
      case 'boolean':
        return true;
      case 'string':
        return stringExample(node, nextTime);
      default:
        return WORD;
    }
  };
  return exampleOf(schema, 0);
}

function stringExample(node: JsonSchema, nextTime: () => string): string {
  if (node.format === 'date-time') return nextTime();
  const formatted = FORMAT_EXAMPLES[String(node.format)];
  if (formatted !== undefined) return formatted;
  const listed = typeof node.pattern === 'string' ? listedValue(node.pattern) : undefined;
  if (listed !== undefined) return listed;
  const minLength = typeof node.minLength === 'number' ? node.minLength : 0;
  const maxLength = typeof node.maxLength === 'number' ? node.maxLength : Infinity;
  return WORD.repeat(Math.ceil(Math.max(minLength, 1) / WORD.length)).slice(
    0,
    Math.max(minLength, Math.min(maxLength, WORD.length)),
  );
}
