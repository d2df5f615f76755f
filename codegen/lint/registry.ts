import { STRING_LENGTHS } from '@convapi/dsl';
import { OPENAPI_RULES } from '../openapi-lint/rule-info.ts';
import { OBJECT_DEPTH } from './rules/object-rules.ts';
import type { RuleInfo, Severity } from './diagnostic.ts';

const definitions = (id: string, severity: Severity, summary: string, help: string): RuleInfo => ({
  id,
  severity,
  summary,
  help,
  scope: 'definitions',
});

/** The rules on definitions/. The OpenAPI rules are listed in openapi-lint/rule-info.ts. */
export const DEFINITION_RULES: readonly RuleInfo[] = [
  definitions(
    'type-check',
    'error',
    "TypeScript's own diagnostics for definitions/ (syntax errors, misspelt builder options, wrong types)",
    'Fix the TypeScript error at the position given; the message carries the TypeScript code (TS2353...).',
  ),
  definitions(
    'load-failed',
    'error',
    'a definition file that cannot be loaded or exports no declaration',
    'Each file of definitions/ exports default one declaration made with collection(), aggregate(), service() or setting(), and runs without throwing.',
  ),
  definitions(
    'duplicate-declaration',
    'error',
    'one name is declared once (per family: resources, services, settings)',
    'Rename or remove the second declaration; the first (the published one, or the one in the file named after it) keeps its place.',
  ),
  definitions(
    'path-segment-case',
    'error',
    'path segments are lowercase, words joined with hyphens',
    'Rename the declaration: lowercase letters and digits, words joined with single hyphens (trade-orders).',
  ),
  definitions(
    'plural-collection',
    'error',
    'collection and aggregate names are plural',
    'A collection path is the plural name: rename it to the plural the message suggests.',
  ),
  definitions(
    'nesting-depth',
    'error',
    'resources nest at most two levels in a path',
    'Make a nested aggregate an aggregate of a collection, give a sub-collection a parent that has none itself, or turn the deeper condition into a query parameter.',
  ),
  definitions(
    'parent-field',
    'error',
    "a collection's parent names one of its reference fields",
    "Name the reference field whose row each resource belongs to (`parent: 'pet'` where `pet: field.reference('pets')`): the collection is then also served at /{version}/{parents}/{parent_id}/{name}.",
  ),
  definitions(
    'path-identifiers',
    'error',
    "a sub-collection's identifier is not named as its parent's",
    'Both name a segment of the path the items are served at (/{version}/pets/{pet_id}/visits/{visit_id}): give the sub-collection an identifier of its own name (its default, <singular>_id).',
  ),
  definitions(
    'aggregate-parent',
    'error',
    'an aggregate is reachable only through its parent collection',
    'Name a declared collection as the parent, refer to the parent instead of the aggregate, and do not declare a collection of the same name.',
  ),
  definitions(
    'property-name-case',
    'error',
    'property names are lowercase snake_case',
    'Rename the field: lowercase letters and digits, words joined with underscores (trade_name).',
  ),
  definitions(
    'reserved-member-name',
    'error',
    'fields do not take the name of a member the server manages or of the error body',
    'Rename the field: the identifier, created_at, updated_at, uri, identity and links are set by the server; message and errors belong to the error body.',
  ),
  definitions(
    'invalid-default',
    'error',
    "a field's default is a value of the field that passes its own checks",
    "Give a default of the field's type that the field's checks (minLength, min, max, format, pattern) accept; references and nested objects take no default.",
  ),
  definitions(
    'indexed-string-length',
    'error',
    'an indexed string declares no maxLength above what an index entry holds',
    `A filterable, unique or sortable string, or one a row rule compares, is indexed, and PostgreSQL holds at most ${STRING_LENGTHS.indexed} characters of it in an index entry: declare maxLength ${STRING_LENGTHS.indexed} or less, or stop indexing the field (docs/dsl.md, String lengths).`,
  ),
  definitions(
    'search-document-length',
    'error',
    "a collection's searchable strings fit in one search document",
    `The searchable strings of a collection, each at its maxLength (declared, or the default of docs/dsl.md), hold at most ${STRING_LENGTHS.searchDocument} characters together: PostgreSQL keeps them in one search document of at most 1 MB and refuses a write past it. Declare smaller maxLengths, or stop searching the longest field (docs/dsl.md, String lengths).`,
  ),
  definitions(
    'unknown-reference',
    'error',
    'references name a declared collection',
    'Refer to a collection some definition declares, by its plural name.',
  ),
  definitions(
    'reference-version',
    'error',
    'a version references only collections served in that version',
    'Serve the referenced collection in every version whose representation holds the reference, or give that version a shape without the field.',
  ),
  definitions(
    'sortable-field',
    'error',
    'sortable is declared on top-level scalar fields of a collection',
    'Remove sortable from references, nested objects, fields inside them and fields of aggregates and settings; sort by a string, integer, number, boolean or time field of the collection.',
  ),
  definitions(
    'filterable-field',
    'error',
    'filterable is declared on top-level fields of a collection',
    'Remove filterable from nested objects, fields inside them, array items (declare it on the array: ?field.contains=item) and fields of aggregates and settings.',
  ),
  definitions(
    'enum-values',
    'error',
    'an enum lists at least one value, none empty, none twice',
    'List each value of field.enum([...]) once; the empty string cannot be told from no filter.',
  ),
  definitions(
    'object-depth',
    'error',
    `nested objects nest at most ${OBJECT_DEPTH} objects deep`,
    `A top-level object field is 1 deep, an object inside it 2: flatten a deeper object into its parent, or make it a collection the row refers to (docs/dsl.md, Nested objects).`,
  ),
  definitions(
    'object-reference',
    'error',
    'a reference is declared at the top level, not inside a nested object',
    'A nested object is stored and served as written, so a reference there would be a bare identifier: move the reference to the top level of the declaration.',
  ),
  definitions(
    'duplicate-path',
    'error',
    'no two declarations serve the same method and path',
    'Rename one of the two declarations.',
  ),
  definitions(
    'reserved-path',
    'error',
    'no service is named docs where the server serves the docs pages',
    'Rename the service: with an openapi service declared, /services/{v}/docs and below are the docs pages.',
  ),
  definitions('version-name', 'error', 'versions are named v1, v2, ...', 'Name versions v1, v2, ... in order.'),
  definitions(
    'no-versions',
    'error',
    'every declaration is served under at least one version',
    'Add versions: { v1: {} }.',
  ),
  definitions(
    'published-shape-changed',
    'error',
    'a published version keeps its shape; a change is a new version',
    'Keep the published version as it was and declare the new shape as a new version.',
  ),
  definitions(
    'published-field-required',
    'error',
    'no required field without a default is added to a published version',
    'Stored rows have no value for a new field and its writers do not send it: give it a default (rows stored before, and writes that leave it out, take it), make it optional, or add it in a new version.',
  ),
  definitions(
    'published-declaration-removed',
    'error',
    'a declaration with published versions is not deleted or renamed',
    'Restore the definition under its published name; retire its versions by marking them deprecated.',
  ),
  definitions(
    'published-shape-extended',
    'warning',
    'an optional field, or a required one with a default, added to a published version',
    'Readers of the published version see a new member: consider declaring it in a new version.',
  ),
  definitions(
    'published-string-bounded',
    'warning',
    'a published version recorded before strings had a length bound now refuses strings over it',
    'Check that the bound (declared maxLength, or the default of docs/dsl.md) suits the clients of the published version, declare a larger maxLength if not, then record it with `npm run generate -- --publish vN`.',
  ),
  definitions(
    'put-create-identifier',
    'error',
    'PUT creates only where clients assign identifiers, and POST does not create there',
    "Declare identifier: { assignedBy: 'client' } with createOnPut: true and operations: { create: false }, or drop createOnPut.",
  ),
  definitions(
    'moved-path',
    'error',
    'a former path (movedFrom) is not served now and redirects to one place',
    'Remove the former name from versions.{v}.movedFrom, or keep it on one declaration only.',
  ),
  definitions(
    'job-produces',
    'error',
    'a job type produces a declared collection',
    "Name a declared collection in the job type's produces, or remove produces.",
  ),
  definitions(
    'read-only-required',
    'error',
    'a read-only field is not required on input',
    'Drop required from the field: the server sets it (compute, or a rule), and a client that sends it is refused with read_only_field.',
  ),
  definitions(
    'on-delete-set-null',
    'error',
    'a reference that deletes set to null is optional',
    "Make the reference optional, or declare onDelete: 'cascade' or 'restrict'.",
  ),
  definitions(
    'reference-holder',
    'error',
    'only collections hold references (single or in an array)',
    'Declare the field in a collection, or hold the identifier as a plain integer or string.',
  ),
  definitions(
    'on-delete-array',
    'error',
    'an array of references restricts deletes of the rows it names',
    "Drop onDelete from the array's item, or make it a single reference.",
  ),
  definitions(
    'computed-field',
    'error',
    'compute names read-only fields of the declaration',
    'Declare each computed field among the fields with readOnly: true, or remove it from compute.',
  ),
  definitions(
    'rule-unknown-collection',
    'error',
    "a rule's data.of('name') names a declared collection",
    'Name a collection some definition declares, by its plural name, or pass its imported declaration to data.of().',
  ),
  definitions(
    'asynchronous-queue',
    'error',
    'asynchronous operations are served and queued on a declared job queue of every version',
    'Name a jobQueue served in every version of the collection, and list only operations the collection serves.',
  ),
  definitions(
    'row-rule-field',
    'error',
    'a row rule compares a stored field of its collection with a value of its type',
    "Name a field the collection declares (not a nested object) and compare it with a value of the field's type: caller.user or caller.client with a string field.",
  ),
  definitions(
    'unique-hidden-rows',
    'warning',
    'a unique value tells nothing of rows a caller may not see',
    "Keep unique where the value's existence is not secret (a public code, an e-mail address a sign-up may reveal). Otherwise drop unique and refuse a repeated value in the create, update and replace rules, reading the collection for the caller (write.data.of(...) without rows: 'all'), which sees only the rows the caller may see (docs/access-control.md).",
  ),
  definitions(
    'malformed-scope',
    'error',
    'the scopes an operation needs are well-formed scope names',
    'Name each scope as lowercase words of letters, digits, _ or - joined by ":" (notes:write, clinic:admin).',
  ),
  definitions(
    'migration-order',
    'error',
    'migration files are numbered 0001, 0002, ... and each follows the one before',
    'Two branches each wrote a migration: delete the one your branch added and run `npm run convapi -- migrate new <name>` again (docs/changing-your-data.md).',
  ),
  definitions(
    'migration-missing',
    'error',
    'in a project that keeps migrations, every change to stored fields and collections has its migration',
    'Run `npm run convapi -- migrate new <name>` and commit the file it writes; declare renamedFrom on a renamed field or collection, or its values are removed with the old name (--accept-data-loss).',
  ),
];

/** Every rule, of both scopes; ids are unique across them. */
export const RULES: readonly RuleInfo[] = [...DEFINITION_RULES, ...OPENAPI_RULES];

/** Every rule of a scope, in registry order. */
export const rulesOf = (scope: RuleInfo['scope']): readonly RuleInfo[] => RULES.filter((rule) => rule.scope === scope);

export const severityOf = (id: string): Severity => RULES.find((rule) => rule.id === id)?.severity ?? 'error';
