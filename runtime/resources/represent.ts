import { runFlow, wait, type Flow, type Maybe, type Row, type StoreReader } from '../storage/index.ts';
import { resourceUri } from '../representation/index.ts';
import type { Catalog, CollectionModel, FieldModel, VersionModel } from './model.ts';
import { fromStored } from './write-input.ts';

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
export function representRow(model: CollectionModel, version: VersionModel, row: Row, options: RepresentOptions): Maybe<Record<string, unknown>> {
  const shaped = fromStored(version, storedFields(model, row));
  const representation: Record<string, unknown> = { [model.identifier.name]: row[model.identifier.name] };
  let inlined: FieldModel[] | undefined;
  for (const field of version.fields) {
    const value = shaped[field.name];
    if (field.kind !== 'reference') {
      representation[field.name] = value;
      continue;
    }
    const uri = referenceUri(field, value, version, options);
    representation[field.name] = uri;
    if (options.expand && uri !== undefined) (inlined ??= []).push(field);
  }
  representation.created_at = row.created_at;
  return inlined === undefined ? representation : runFlow(inlineReferences(representation, inlined, shaped, version, options));
}

function referenceUri(field: FieldModel, id: unknown, version: VersionModel, options: RepresentOptions): string | undefined {
  if (id === undefined || id === null || field.references === undefined) return undefined;
  const target = options.catalog.collections[field.references];
  return target === undefined ? undefined : resourceUri(options.baseUrl, version.name, target.name, id);
}

/** Replaces each reference's URI with the resource it names, where it exists and serves this version. */
function* inlineReferences(
  representation: Record<string, unknown>,
  fields: readonly FieldModel[],
  shaped: Record<string, unknown>,
  version: VersionModel,
  options: RepresentOptions,
): Flow<Record<string, unknown>> {
  for (const field of fields) {
    const target = options.catalog.collections[field.references!]!;
    const row = yield* wait(options.reader.find(target.table, shaped[field.name]));
    const targetVersion = target.versions[version.name];
    // One level only: the inlined resource shows its own references as URIs.
    if (row !== undefined && targetVersion !== undefined) representation[field.name] = yield* wait(representRow(target, targetVersion, row, { ...options, expand: false }));
  }
  return representation;
}

/** Every property name a version's representation can have, for X-Result-Fields. */
export function representationNames(model: CollectionModel, version: VersionModel): string[] {
  return [model.identifier.name, ...version.fields.map((field) => field.name), 'created_at'];
}
