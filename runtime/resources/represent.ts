import { wait, type Flow, type Row, type StoreReader } from '../storage/index.ts';
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
 * then created_at. Null stripping happens once, on the final body. A Flow (run it with runFlow):
 * inlining a reference reads the store, which may answer with a promise.
 */
export function* representRow(
  model: CollectionModel,
  version: VersionModel,
  row: Row,
  options: RepresentOptions,
): Flow<Record<string, unknown>> {
  const stored = storedFields(model, row);
  const shaped = fromStored(version, stored);
  const representation: Record<string, unknown> = { [model.identifier.name]: row[model.identifier.name] };
  for (const field of version.fields) {
    const value = shaped[field.name];
    representation[field.name] = field.kind === 'reference' ? yield* representReference(field, value, version, options) : value;
  }
  representation.created_at = row.created_at;
  return representation;
}

function* representReference(field: FieldModel, id: unknown, version: VersionModel, options: RepresentOptions): Flow<unknown> {
  if (id === undefined || id === null || field.references === undefined) return undefined;
  const target = options.catalog.collections[field.references];
  if (target === undefined) return undefined;
  if (options.expand) {
    const row = yield* wait(options.reader.find(target.table, id));
    const targetVersion = target.versions[version.name];
    if (row !== undefined && targetVersion !== undefined) {
      // One level only: the inlined resource shows its own references as URIs.
      return yield* representRow(target, targetVersion, row, { ...options, expand: false });
    }
  }
  return resourceUri(options.baseUrl, version.name, target.name, id);
}

/** Every property name a version's representation can have, for X-Result-Fields. */
export function representationNames(model: CollectionModel, version: VersionModel): string[] {
  return [model.identifier.name, ...version.fields.map((field) => field.name), 'created_at'];
}
