import type { ResolvedCollection, ResolvedModel } from '../model/index.ts';

/** A collection served below its parent's rows in one version: the parent collection and the reference field. */
export interface ParentPath {
  readonly parent: ResolvedCollection;
  readonly field: string;
  /** `/v1/pets/:pet_id/visits`: the sub-collection's path in that version. */
  readonly path: string;
}

/**
 * Where each collection declaring a `parent` is served below it, per version: only where the
 * declaration is sound (the field refers to a declared collection that has no parent of its own, so
 * paths nest two levels at most) and the version serves both the parent and the field. Lint reports
 * every other case (parent-field, nesting-depth, reference-version); routes, documents and clients
 * all ask here, so they agree.
 */
export function parentPaths(
  model: ResolvedModel,
): (collection: ResolvedCollection, version: string) => ParentPath | undefined {
  const byName = new Map(model.collections.map((collection) => [collection.name, collection]));
  return (collection, version) => {
    const declared = collection.parent;
    const parent = declared?.collection === undefined ? undefined : byName.get(declared.collection);
    if (declared === undefined || parent === undefined || parent.parent !== undefined) return undefined;
    const served = collection.versions.find((candidate) => candidate.name === version);
    const field = served?.fields.find((candidate) => candidate.name === declared.field);
    if (field?.kind !== 'reference' || field.references !== parent.name) return undefined;
    if (!parent.versions.some((candidate) => candidate.name === version)) return undefined;
    return {
      parent,
      field: declared.field,
      path: `/${version}/${parent.name}/:${parent.identifier.name}/${collection.name}`,
    };
  };
}
