import type { ResolvedCollection, ResolvedField, ResolvedVersion } from '../model/index.ts';
import { jsonSchemaOf, valueAt, type JsonSchema } from './schema-of.ts';
import { pascalOf } from '../emit/names.ts';
import { ref } from './components.ts';

/** Looks up a field's declaration (for its zod schema) from its access path in the definition. */
export type DeclarationOf = (source: string) => unknown;

/** Component name of a representation: `OrderV1`, `ProfileV2`, `GuiLangV1`. */
export const representationName = (singular: string, version: string) =>
  `${pascalOf(singular)}${version.toUpperCase()}`;

/** A field as clients receive it: references are URIs (or the resource itself when expanded). */
function readSchema(
  field: ResolvedField,
  declaration: unknown,
  version: ResolvedVersion,
  names: ReadonlyMap<string, string>,
): JsonSchema {
  if (field.kind === 'reference') {
    const target = field.references === undefined ? undefined : names.get(field.references);
    const uri = {
      type: 'string',
      format: 'uri',
      description: `URI of the ${target ?? 'resource'}; the ${target ?? 'resource'} itself with X-Expansion-Fields: true`,
    };
    return target === undefined ? uri : { anyOf: [uri, ref('schemas', representationName(target, version.name))] };
  }
  if (field.kind === 'time') return { type: 'string', format: 'date-time' };
  // An array of references: its bounds, each item read as a single reference is (a URI, or inlined).
  if (field.kind === 'array' && field.items?.references !== undefined)
    return withDescription(
      { ...boundedSchema(field, declaration), items: readSchema(field.items, declaration, version, names) },
      field,
    );
  if (field.kind === 'object') {
    // A stored object was checked whole on write, so its required members are there; a version's own
    // shape maps it from other fields, and promises nothing (as its top level).
    const required = version.shaped ? [] : (field.fields ?? []).filter((nested) => nested.required);
    return {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        (field.fields ?? []).map((nested) => [nested.name, readSchema(nested, declaration, version, names)]),
      ),
      ...(required.length > 0 ? { required: required.map((nested) => nested.name) } : {}),
    };
  }
  return withDescription(boundedSchema(field, declaration), field);
}

/** The JSON Schema of a field's zod schema, with every string's length bound (declared or default) as its maxLength, nested ones included. */
function boundedSchema(field: ResolvedField, declaration: unknown): JsonSchema {
  return withLengths(jsonSchemaOf(valueAt(declaration, [...field.access, 'schema'])), field);
}

function withLengths(schema: JsonSchema, field: ResolvedField): JsonSchema {
  if (field.stringLength !== undefined) return { ...schema, maxLength: field.stringLength.max };
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (field.kind !== 'object' || properties === undefined) return schema;
  const nested = new Map((field.fields ?? []).map((member) => [member.name, member]));
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, member]) => [
        name,
        nested.has(name) ? withLengths(member, nested.get(name)!) : member,
      ]),
    ),
  };
}

/** A field as clients write it: the zod schema's input form; references as a URI or an id. */
function writeSchema(field: ResolvedField, declaration: unknown, names: ReadonlyMap<string, string>): JsonSchema {
  if (field.kind === 'reference') {
    const target = (field.references === undefined ? undefined : names.get(field.references)) ?? 'resource';
    const uri = { type: 'string', minLength: 1, description: `URI of the ${target} (as responses show it) or its id` };
    return withDescription({ anyOf: [uri, { type: 'integer', minimum: 1 }] }, field);
  }
  if (field.kind === 'array' && field.items?.references !== undefined)
    return withDescription(
      { ...boundedSchema(field, declaration), items: writeSchema(field.items, declaration, names) },
      field,
    );
  return withDescription(boundedSchema(field, declaration), field);
}

function withDescription(schema: JsonSchema, field: ResolvedField): JsonSchema {
  return field.description === undefined ? schema : { ...schema, description: field.description };
}

/**
 * The representation a GET answers. A resource of a collection always has its identifier, its
 * created_at and every required field (null fields are left out, so an optional one may be
 * missing): those are `required`, so generated clients type them as present. X-Result-Fields asks
 * for fewer, and its answer holds only those (the parameter says so). A version with its own shape
 * (read/write mappings) and the values of aggregates and settings (which may not have been written
 * yet) list nothing as required.
 */
export function readRepresentation(
  fields: readonly ResolvedField[],
  declaration: unknown,
  version: ResolvedVersion,
  names: ReadonlyMap<string, string>,
  identity?: { name: string; type: 'integer' | 'string' },
  description?: string,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  if (identity !== undefined) properties[identity.name] = { type: identity.type };
  // A field the server sets is marked readOnly (and left out of the write schemas below).
  for (const field of fields)
    properties[field.name] = field.readOnly
      ? { ...readSchema(field, declaration, version, names), readOnly: true }
      : readSchema(field, declaration, version, names);
  if (identity !== undefined)
    properties.created_at = { type: 'string', format: 'date-time', description: 'Set by the server.' };
  const required =
    identity === undefined || version.shaped
      ? []
      : [identity.name, ...fields.filter((field) => field.required).map((field) => field.name), 'created_at'];
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    properties,
  };
}

/**
 * What POST and PUT take (`complete`: every required field without a default, no null; an optional
 * field is left out instead, and a field with a default takes it when left out), or PATCH
 * (`partial`: any subset, null clears an optional field).
 */
export function writeRepresentation(
  allFields: readonly ResolvedField[],
  declaration: unknown,
  mode: 'complete' | 'partial',
  names: ReadonlyMap<string, string>,
): JsonSchema {
  // Read-only fields are the server's: a write that sends one is refused (400 read_only_field).
  const fields = allFields.filter((field) => !field.readOnly);
  const properties = Object.fromEntries(
    fields.map((field) => {
      const schema = writeSchema(field, declaration, names);
      if (mode === 'partial') return [field.name, field.required ? schema : { anyOf: [schema, { type: 'null' }] }];
      // A complete write that leaves the field out stores its default; a partial one leaves it as it is.
      return [field.name, field.default === undefined ? schema : withDefaultSaid(schema, field.default)];
    }),
  );
  // A required field with a default may be left out (never sent as null): it is not `required` on input.
  const required =
    mode === 'complete'
      ? fields.filter((field) => field.required && field.default === undefined).map((field) => field.name)
      : [];
  return { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * A written field's default, said in its description rather than as the schema's `default`: generic
 * client generators read a member with a `default` in a named schema as always present (plain
 * openapi-typescript makes it required), which holds of what a server answers, not of what a client
 * sends, and would make every caller send the value it may leave out.
 */
function withDefaultSaid(schema: JsonSchema, value: unknown): JsonSchema {
  const described = typeof schema.description === 'string' ? schema.description.replace(/\.?$/, '. ') : '';
  return { ...schema, description: `${described}Left out, it is ${JSON.stringify(value)}.` };
}

/** Collections by name → singular, to name the schema a reference points at. */
export function singularNames(collections: readonly ResolvedCollection[]): Map<string, string> {
  return new Map(collections.map((collection) => [collection.name, collection.singular]));
}
