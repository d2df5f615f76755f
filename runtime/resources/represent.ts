import { andThen, runFlow, wait, type Flow, type Maybe, type Row, type StoreReader } from '../storage/index.ts';
import { project, resourceUri, stripNulls } from '../representation/index.ts';
import type { Catalog, CollectionModel, FieldModel, VersionModel } from './model.ts';
import { inDeclaredOrder } from './object-members.ts';
import { fromStored } from './write-input.ts';
import { withComputedFields } from './write-rules.ts';

export interface RepresentOptions {
  readonly baseUrl: string;
  readonly catalog: Catalog;
  readonly reader: StoreReader;
  /** Inline referenced resources (X-Expansion-Fields: true) instead of their URIs. */
  readonly expand: boolean;
}

/** The stored fields of a row, without the key and the bookkeeping columns. */
export function storedFields(model: { fields: readonly FieldModel[] }, row: Row): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  for (const field of model.fields) if (row[field.name] !== undefined) stored[field.name] = row[field.name];
  return stored;
}

/**
 * A stored row as one version represents it: the identifier first, then the version's fields (mapped
 * from the stored ones when the version declares a shape), references as absolute URIs or inlined,
 * then created_at. Null stripping happens once, on the final body. Answers at once unless it inlines
 * a reference (X-Expansion-Fields), which reads the store: then a promise on PostgreSQL.
 */
export function representRow(
  model: CollectionModel,
  version: VersionModel,
  stored: Row,
  options: RepresentOptions,
): Maybe<Record<string, unknown>> {
  // Rows stored before a computed field was declared get it here, on read.
  const row = model.compute === undefined ? stored : withComputedFields(model, stored);
  const shaped = fromStored(version, storedFields(model, row));
  const representation: Record<string, unknown> = { [model.identifier.name]: row[model.identifier.name] };
  let inlined: FieldModel[] | undefined;
  for (const field of version.fields) {
    const value = shaped[field.name];
    // Only references and arrays of references carry `references`: other fields pay one test, as before.
    if (field.references === undefined) {
      representation[field.name] = field.kind === 'object' ? inDeclaredOrder(field, value) : value;
      continue;
    }
    const uri =
      field.kind === 'array'
        ? referenceUris(field, value, version, options)
        : referenceUri(field, value, version, options);
    representation[field.name] = uri;
    if (options.expand && uri !== undefined) (inlined ??= []).push(field);
  }
  representation.created_at = row.created_at;
  return inlined === undefined
    ? representation
    : runFlow(inlineReferences(representation, inlined, shaped, version, options));
}

/**
 * A row as a response body in `version`: representRow's representation projected to the fields asked
 * for (X-Result-Fields; undefined for all) with its null members left out.
 *
 * A version without a shape, when no reference is inlined, has only column values and reference URIs
 * as members: its body is built here in one object, nulls skipped as it goes, instead of a stored-fields
 * copy, the representation and a second, null-stripping copy per row (a GET list of 20 made sixty
 * objects for twenty rows; BENCHMARKS.md).
 */
export function representBody(
  model: CollectionModel,
  version: VersionModel,
  row: Row,
  options: RepresentOptions,
  fields: readonly string[] | undefined,
): Maybe<Record<string, unknown>> {
  if (version.read === undefined && !options.expand && model.compute === undefined)
    return project(flatRepresentation(model, version, row, options), fields);
  return andThen(representRow(model, version, row, options), (representation) =>
    stripNulls(project(representation, fields)),
  );
}

function flatRepresentation(
  model: CollectionModel,
  version: VersionModel,
  row: Row,
  options: RepresentOptions,
): Record<string, unknown> {
  const stored = storedNamesOf(model);
  const body: Record<string, unknown> = {};
  const identity = model.identifier.name;
  const key = row[identity];
  if (key !== null && key !== undefined) body[identity] = key;
  for (const field of version.fields) {
    // As storedFields() then fromStored() with no shape: a column of the model's own fields, or nothing.
    const value = stored.has(field.name) ? row[field.name] : undefined;
    const member =
      field.references !== undefined
        ? field.kind === 'array'
          ? referenceUris(field, value, version, options)
          : referenceUri(field, value, version, options)
        : field.kind === 'object'
          ? inDeclaredOrder(field, value)
          : value;
    if (member !== null && member !== undefined) body[field.name] = member;
  }
  const created = row.created_at;
  if (created !== null && created !== undefined) body.created_at = created;
  return body;
}

// The names of a model's stored fields, found once per model rather than per row.
const storedNames = new WeakMap<{ fields: readonly FieldModel[] }, ReadonlySet<string>>();

function storedNamesOf(model: { fields: readonly FieldModel[] }): ReadonlySet<string> {
  let names = storedNames.get(model);
  if (names === undefined) {
    names = new Set(model.fields.map((field) => field.name));
    storedNames.set(model, names);
  }
  return names;
}

function referenceUri(
  field: FieldModel,
  id: unknown,
  version: VersionModel,
  options: RepresentOptions,
): string | undefined {
  if (id === undefined || id === null || field.references === undefined) return undefined;
  const target = options.catalog.collections[field.references];
  return target === undefined ? undefined : resourceUri(options.baseUrl, version.name, target.name, id);
}

/** An array of references as the URIs of the rows it names, in its order. */
function referenceUris(
  field: FieldModel,
  ids: unknown,
  version: VersionModel,
  options: RepresentOptions,
): string[] | undefined {
  if (!Array.isArray(ids)) return undefined;
  const target = options.catalog.collections[field.references!];
  return target === undefined
    ? undefined
    : ids.map((id) => resourceUri(options.baseUrl, version.name, target.name, id));
}

/**
 * Replaces each reference's URI with the resource it names (an array's, each item's), where it exists,
 * the caller may see it (the reader applies row access) and it serves this version; otherwise the URI stays.
 */
function* inlineReferences(
  representation: Record<string, unknown>,
  fields: readonly FieldModel[],
  shaped: Record<string, unknown>,
  version: VersionModel,
  options: RepresentOptions,
): Flow<Record<string, unknown>> {
  // One level only: the inlined resource shows its own references as URIs.
  const inline = { ...options, expand: false };
  for (const field of fields) {
    const target = options.catalog.collections[field.references!]!;
    const targetVersion = target.versions[version.name];
    if (targetVersion === undefined) continue;
    if (field.kind === 'array') {
      const ids = shaped[field.name] as readonly unknown[];
      const items = [...(representation[field.name] as unknown[])];
      for (const [index, id] of ids.entries()) {
        const row = yield* wait(options.reader.find(target.table, id));
        if (row !== undefined) items[index] = yield* wait(representRow(target, targetVersion, row, inline));
      }
      representation[field.name] = items;
      continue;
    }
    const row = yield* wait(options.reader.find(target.table, shaped[field.name]));
    if (row !== undefined) representation[field.name] = yield* wait(representRow(target, targetVersion, row, inline));
  }
  return representation;
}

/** Every property name a version's representation can have, for X-Result-Fields. */
export function representationNames(model: CollectionModel, version: VersionModel): string[] {
  return [model.identifier.name, ...version.fields.map((field) => field.name), 'created_at'];
}
