import { z } from 'zod';
import { utcTimeSchema } from './utc-time.ts';

/** The storable kinds of field. Each maps to one column type and one JSON type. */
export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'time' | 'reference' | 'object' | 'array';

/** What every field can say about itself besides its type. */
export interface FieldOptions {
  /** A write without this field is refused with 400 missing_field. Default false. */
  required?: boolean;
  /** No two rows may share a value: a duplicate write is refused with 409. Default false. */
  unique?: boolean;
  /**
   * The field can be used as a filter in the list query string: equality (`?trade_name=x`), and on
   * integer, number and time fields comparisons too (`?fee.gte=10&scheduled_at.lt=2026-12-03T00:00:00Z`:
   * `gt`, `gte`, `lt`, `lte`). Indexed. Default false.
   */
  filterable?: boolean;
  /**
   * Lists can be sorted by the field (`?sort=-scheduled_at,pet_name`; ties by the identifier). Indexed
   * together with the identifier. Not for references or nested objects. Default false.
   */
  sortable?: boolean;
  /** The field is indexed for the search service (full-text). Default false. */
  searchable?: boolean;
  /**
   * Set by the server, never by a client: computed from other fields (the declaration's `compute`) or
   * set by a rule. A write that sends it is refused with 400 read_only_field; the OpenAPI documents
   * mark it readOnly and leave it out of the write schemas. Cannot be `required` (lint). Default false.
   */
  readOnly?: boolean;
  /** Shown in the OpenAPI document. */
  description?: string;
  /**
   * The field's former name: the next migration (`convapi migrate new`) renames the column, so the
   * stored values move to the new name instead of being dropped with the old one.
   */
  renamedFrom?: string;
}

/**
 * The value a field takes when a create or a replace leaves it out, and the value of rows stored
 * before the field was declared (the column is added with it). A required field with a default may
 * be left out of a write, but never set to null. Must be a value of the field's type that passes its
 * own checks (lint: invalid-default). Not for references or nested objects.
 */
interface DefaultOption<Value> {
  default?: Value;
}

/**
 * What deleting a referenced row does to the rows that refer to it through a reference field:
 * `restrict` refuses the delete with 409 while any refers to it (the default), `cascade` deletes them
 * too (each with its own delete rule and its own referrers' behaviour), `set-null` empties their
 * reference (each as an update, with its update rule; not for a required reference, lint).
 */
export type OnDelete = 'restrict' | 'cascade' | 'set-null';

/** A declared field: its kind, the zod schema that validates written values, and its options. */
export interface FieldDeclaration<
  Kind extends FieldKind = FieldKind,
  Schema extends z.ZodType = z.ZodType,
> extends FieldOptions {
  readonly kind: Kind;
  readonly schema: Schema;
  /** For `reference` fields: the plural name of the referenced collection. */
  readonly references?: string;
  /** For `reference` fields: what deleting the referenced row does to this one (see OnDelete). */
  readonly onDelete?: OnDelete;
  /** For `object` fields: the nested fields (used by version shapes such as accounts v2 `profile`). */
  readonly fields?: Readonly<Record<string, FieldDeclaration>>;
  /** For `array` fields: the declaration of each item (a string, integer, number, boolean, time, enum or reference field). */
  readonly items?: FieldDeclaration;
  /** For `array` fields: no item may appear twice (for references: no row named twice, by URI or id). */
  readonly uniqueItems?: boolean;
  /** For enums (`field.enum`): the values a string field may hold, in the declared order. */
  readonly values?: readonly string[];
  /** The value a create or a replace that leaves the field out stores (see DefaultOption). */
  readonly default?: FieldDefault;
  /**
   * For `string` fields: the declared maximum length. Without one the field takes a default bound
   * (STRING_LENGTHS: smaller for an indexed string); a longer value is refused with 400 value_too_long.
   */
  readonly maxLength?: number;
}

/** The JSON values a default can be: the field kinds that take one are strings, numbers and booleans. */
export type FieldDefault = string | number | boolean;

export type Fields = Readonly<Record<string, FieldDeclaration>>;

/**
 * Type-level check of property names: a field whose name has an uppercase letter becomes a type
 * error that says what to do. (Underscores, digits and the rest are checked by lint with a position.)
 */
export type LowercaseFieldNames<F> = {
  readonly [K in keyof F]: K extends Lowercase<K & string>
    ? F[K]
    : `property ${K & string} must be lowercase snake_case`;
};

interface StringOptions extends FieldOptions, DefaultOption<string> {
  minLength?: number;
  /** Default: STRING_LENGTHS.default, or STRING_LENGTHS.indexed for an indexed string (docs/dsl.md). */
  maxLength?: number;
  /** A ready-made format: `email` checks an address. */
  format?: 'email';
  pattern?: RegExp;
}

interface NumberOptions extends FieldOptions, DefaultOption<number> {
  min?: number;
  max?: number;
}

/**
 * Zod runs a length check on any value that has a length, even after its own type error: without
 * these, an array sent for a string (or a string for an array) would also be reported too long,
 * counting its items (or characters) against a bound it was never held to. Zod honours a check's
 * `when` (its own default for length checks is "anything with a length") but leaves it out of the
 * parameters' type, hence the type given here: ARCHITECTURE.md lists it with the test that guards it.
 */
const onlyWhen = (when: (payload: { value: unknown }) => boolean) => ({ when }) as Record<never, never>;
const ONLY_STRINGS = onlyWhen((payload) => typeof payload.value === 'string');
const ONLY_ARRAYS = onlyWhen((payload) => Array.isArray(payload.value));

function stringField(options: StringOptions = {}): FieldDeclaration<'string', z.ZodString> {
  const { minLength, maxLength, format, pattern, ...rest } = options;
  let schema = z.string();
  if (format === 'email') schema = schema.email();
  if (minLength !== undefined) schema = schema.min(minLength, ONLY_STRINGS);
  if (maxLength !== undefined) schema = schema.max(maxLength, ONLY_STRINGS);
  if (pattern !== undefined) schema = schema.regex(pattern);
  return { kind: 'string', schema, ...rest, ...(maxLength === undefined ? {} : { maxLength }) };
}

function integerField(options: NumberOptions = {}): FieldDeclaration<'integer', z.ZodNumber> {
  const { min, max, ...rest } = options;
  let schema = z.number().int();
  if (min !== undefined) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  return { kind: 'integer', schema, ...rest };
}

function numberField(options: NumberOptions = {}): FieldDeclaration<'number', z.ZodNumber> {
  const { min, max, ...rest } = options;
  let schema = z.number();
  if (min !== undefined) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  return { kind: 'number', schema, ...rest };
}

function booleanField(options: FieldOptions & DefaultOption<boolean> = {}): FieldDeclaration<'boolean', z.ZodBoolean> {
  return { kind: 'boolean', schema: z.boolean(), ...options };
}

/**
 * A point in time. Written with any ISO 8601 offset (`2026-12-02T09:30:00+02:00`), stored and read
 * as UTC with whole seconds (`2026-12-02T07:30:00Z`); a default is such a string.
 */
function timeField(options: FieldOptions & DefaultOption<string> = {}): FieldDeclaration<'time', z.ZodString> {
  return { kind: 'time', schema: utcTimeSchema(), ...options };
}

/**
 * One of a listed set of strings (`field.enum(['cat', 'dog'])`), stored as a string. A write of any
 * other value is refused with 400 invalid_field naming the field and the values it takes; the
 * OpenAPI documents list them (`enum`), and a filterable enum filters by one of them (another value:
 * 400 invalid_parameter). Lint: enum-values (at least one value, none empty, none twice).
 */
function enumField<const Values extends readonly [string, ...string[]]>(
  values: Values,
  options: FieldOptions & DefaultOption<Values[number]> = {},
): FieldDeclaration<'string', z.ZodType<Values[number], Values[number]>> & { values: Values } {
  const schema = z.enum(values as unknown as [string, ...string[]], {
    error: () => `must be one of ${values.join(', ')}`,
  }) as unknown as z.ZodType<Values[number], Values[number]>;
  return { kind: 'string', schema, values, ...options };
}

/** The kinds an array's items can be: scalars, and references stored as the referred rows' ids, in the array's JSON. */
type ItemKind = 'string' | 'integer' | 'number' | 'boolean' | 'time' | 'reference';

interface ArrayOptions extends Pick<FieldOptions, 'required' | 'readOnly' | 'description' | 'renamedFrom'> {
  /**
   * Lists filter by one item: `?allergies.contains=pollen` lists the rows whose array holds it (an
   * array of references: the referred row's id or URI). Indexed on PostgreSQL (GIN); SQLite reads
   * each row's items. Default false.
   */
  filterable?: boolean;
  minItems?: number;
  maxItems?: number;
  /** No item may appear twice. Default false. */
  uniqueItems?: boolean;
}

/**
 * A list of scalars (`field.array(field.string({ minLength: 1 }), { maxItems: 10 })`), stored as JSON
 * (text on SQLite, jsonb on PostgreSQL) in the item's stored form (times in UTC). Each item is checked
 * by the item's own field: a refusal names it by position (`allergies[2]`). Filterable by one item
 * (`?allergies.contains=pollen`); not sortable, unique or searchable, and it takes no default.
 *
 * A list of references (`field.array(field.reference('products'), { uniqueItems: true })`) is a
 * many-to-many: stored as the referred rows' ids, served as their URIs (each inlined with
 * `X-Expansion-Fields: true`), written as URIs or ids; a row it names that does not exist is 422
 * naming the item (`products[2]`), and deleting a row some array still names is 409 (restrict
 * only: an item declaring `onDelete` is lint's on-delete-array).
 */
function arrayField<Item extends FieldDeclaration<ItemKind>>(
  items: Item,
  options: ArrayOptions = {},
): FieldDeclaration<'array', z.ZodType<z.output<Item['schema']>[], z.input<Item['schema']>[]>> & { items: Item } {
  const { minItems, maxItems, uniqueItems, ...rest } = options;
  let schema = z.array(items.schema);
  if (minItems !== undefined)
    schema = schema.min(minItems, {
      ...ONLY_ARRAYS,
      error: `must hold at least ${minItems} item${minItems === 1 ? '' : 's'}`,
    });
  if (maxItems !== undefined)
    schema = schema.max(maxItems, {
      ...ONLY_ARRAYS,
      error: `must hold at most ${maxItems} item${maxItems === 1 ? '' : 's'}`,
    });
  const checked =
    uniqueItems === true
      ? schema
          .superRefine((list, context) => {
            const seen = new Set<string>();
            list.forEach((item, index) => {
              const text = JSON.stringify(item);
              if (seen.has(text))
                context.addIssue({ code: 'custom', path: [index], message: `repeats the item ${text}` });
              seen.add(text);
            });
          })
          .meta({ uniqueItems: true })
      : schema;
  return { kind: 'array', schema: checked as never, items, ...rest, ...(uniqueItems === true ? { uniqueItems } : {}) };
}

/**
 * A reference to one resource of another collection. Responses carry the referenced resource's
 * absolute URI (inlined with `X-Expansion-Fields: true`); writes accept the URI or the bare id.
 */
interface ReferenceOptions extends FieldOptions {
  /** What deleting the referenced row does to this one. Default `restrict` (see OnDelete). */
  onDelete?: OnDelete;
}

function referenceField<Target extends string>(
  collection: Target,
  options: ReferenceOptions = {},
): FieldDeclaration<'reference', z.ZodUnion<[z.ZodString, z.ZodNumber]>> & { references: Target } {
  return {
    kind: 'reference',
    // Said as the server says a string or number that names no row of the collection.
    schema: z.union([z.string().min(1), z.number().int()], {
      error: `must be the URI or id of one of ${collection}`,
    }),
    references: collection,
    ...options,
  };
}

/**
 * A nested object of fields (`field.object({ street: field.string(), city: field.string({ required: true }) })`),
 * stored as JSON in one column (text on SQLite, jsonb on PostgreSQL) and served with its members in the
 * declared order. Each member is checked by its own field, a refusal naming it by its path
 * (`address.city`); a member not declared is 400 unknown_field. Objects nest at most three deep
 * (lint: object-depth) and hold no reference (lint: object-reference). Not filterable, sortable,
 * unique or searchable, and it takes no default; a PATCH replaces the whole object.
 */
function objectField<Nested extends Fields>(
  fields: Nested,
  // `filterable` stays so that lint can say why it filters nothing (filterable-field).
  options: Pick<FieldOptions, 'required' | 'filterable' | 'readOnly' | 'description' | 'renamedFrom'> = {},
): FieldDeclaration<'object'> & { fields: Nested } {
  const shape = Object.fromEntries(
    // A nested field left out takes its default, as a top-level one does.
    Object.entries(fields).map(([name, nested]) => [
      name,
      nested.default !== undefined
        ? nested.schema.default(nested.default as never)
        : nested.required
          ? nested.schema
          : nested.schema.optional(),
    ]),
  );
  return { kind: 'object', schema: z.object(shape).strict(), fields, ...options };
}

/**
 * A language/locale tag (BCP 47). Written values are checked and stored in canonical form
 * (`fr-fr` becomes `fr-FR`); a malformed tag is refused.
 */
function languageTagField(options: FieldOptions & DefaultOption<string> = {}): FieldDeclaration<'string'> {
  const schema = z.string().transform((tag, context) => {
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical !== undefined) return canonical;
    } catch {
      // RangeError: not a well-formed tag; reported below.
    }
    context.addIssue({
      code: 'custom',
      message: `"${tag}" is not a well-formed BCP 47 language tag (for example fr-FR)`,
    });
    return z.NEVER;
  });
  return { kind: 'string', schema, ...options };
}

/** Field helpers: each returns a plain declaration with its zod schema. */
export const field = {
  string: stringField,
  integer: integerField,
  number: numberField,
  boolean: booleanField,
  time: timeField,
  enum: enumField,
  array: arrayField,
  reference: referenceField,
  object: objectField,
  languageTag: languageTagField,
} as const;
