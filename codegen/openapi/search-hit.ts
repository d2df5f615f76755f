import type { ResolvedCollection, ResolvedModel } from '../model/index.ts';
import { ref } from './components.ts';
import { representationName } from './representation-schemas.ts';
import type { JsonSchema } from './schema-of.ts';

/** The collections a search of `version` reaches: those with a searchable field served in it. */
export function searchableIn(model: ResolvedModel, version: string): ResolvedCollection[] {
  return model.collections.filter(
    (collection) =>
      collection.fields.some((field) => field.searchable) &&
      collection.versions.some((served) => served.name === version),
  );
}

/** `SearchHitV1`: one hit of a search without category. */
export const searchHitName = (version: string) => `SearchHit${version.toUpperCase()}`;

/** The hit of a search without category (runtime: search-every-collection.ts), in this version. */
export function searchHitSchemas(model: ResolvedModel, version: string): Record<string, JsonSchema> {
  const searchable = searchableIn(model, version);
  if (searchable.length === 0) return {};
  const items = searchable.map((collection) => ref('schemas', representationName(collection.singular, version)));
  return {
    [searchHitName(version)]: {
      type: 'object',
      description: 'One hit of a search of every collection: the collection it is of, its URI, and the resource.',
      additionalProperties: false,
      required: ['collection', 'uri', 'resource'],
      properties: {
        collection: {
          type: 'string',
          enum: searchable.map((collection) => collection.name),
          description: 'The collection the resource is of.',
        },
        uri: { type: 'string', format: 'uri', description: "The resource's URI." },
        resource: {
          ...(items.length === 1 ? items[0]! : { anyOf: items }),
          description: "The resource, in its collection's representation.",
        },
      },
    },
  };
}
