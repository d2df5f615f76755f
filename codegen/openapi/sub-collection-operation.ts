import { pascalOf } from '../emit/names.ts';
import type { ResolvedModel } from '../model/index.ts';
import { parentPaths, type RouteDescriptor } from '../routes/index.ts';
import { ref } from './components.ts';
import { operationIds } from './naming.ts';
import { json, type OperationSpec } from './operation-spec.ts';
import { representationName } from './representation-schemas.ts';
import { collectionOperation, identifierRef, withArticle } from './resource-operations.ts';
import type { JsonSchema } from './schema-of.ts';

/** The body of a create below a parent row: `VisitV1WriteBelowPet`. */
export const belowParentWriteName = (representation: string, parentSingular: string) =>
  `${representation}WriteBelow${pascalOf(parentSingular)}`;

/**
 * The create body below a parent row: the collection's own create body, with the parent field
 * optional (the path names the parent) and saying what it may hold there.
 */
export function belowParentWrite(write: JsonSchema, field: string, parentSingular: string): JsonSchema {
  const properties = write.properties as Record<string, JsonSchema>;
  const { required: declared, ...rest } = write;
  const required = ((declared as string[] | undefined) ?? []).filter((name) => name !== field);
  return {
    ...rest,
    properties: {
      ...properties,
      [field]: {
        ...properties[field],
        description: `The ${parentSingular} of the path, when left out; naming another ${parentSingular} gets 422 parent_mismatch.`,
      },
    },
    ...(required.length > 0 ? { required } : {}),
  };
}

/**
 * A collection's list, create or read below one row of its parent (`/v1/pets/{pet_id}/visits`): the
 * same operation as at the collection's own path (filters, sort, paging, bodies, statuses), with the
 * parent's identifier, and 404 when the parent does not exist or the caller may not see it.
 */
export function subCollectionOperation(
  route: RouteDescriptor & { handler: { kind: 'sub-collection' } },
  model: ResolvedModel,
  version: string,
): OperationSpec {
  const collection = model.collections.find((candidate) => candidate.name === route.declaration)!;
  const { parent, field } = parentPaths(model)(collection, version)!;
  const operation = route.handler.operation;
  const own = collectionOperation({ ...route, handler: { kind: 'collection', operation } }, model, version);
  const parentId = identifierRef(parent.identifier.name);
  const ofParent = `of ${withArticle(parent.singular)}`;
  const missing = `404 when the ${parent.singular} does not exist or the caller may not see it, as for a missing ${parent.singular}.`;
  const own404 = own.errors.includes('404') ? own.errors : ['404', ...own.errors];
  switch (operation) {
    case 'list': {
      const listForm = route.path.endsWith('/(list)');
      return {
        ...own,
        operationId: listForm
          ? operationIds.subListForm(parent.singular, collection.name)
          : operationIds.subList(parent.singular, collection.name),
        summary: `List the ${collection.name} ${ofParent}${listForm ? ' (the /(list) form)' : ''}`,
        description: `The ${collection.name} whose ${field} is this ${parent.singular}: the list of GET /${version}/${collection.name} with the same filters, sort and paging (Link keeps this path, the filters and the sort; X-Total-Count counts these ${collection.name} only). A ${field} filter naming another ${parent.singular} gets 400 invalid_parameter. ${missing}`,
        parameters: [parentId, ...own.parameters],
        errors: own404,
      };
    }
    case 'create':
      return {
        ...own,
        operationId: operationIds.subCreate(parent.singular, collection.singular),
        summary: `Create ${withArticle(collection.singular)} ${ofParent}`,
        description: `${own.description} Its ${field} is the ${parent.singular} of the path: a body that leaves ${field} out gets it, one naming another ${parent.singular} gets 422 parent_mismatch naming ${field}. The created ${collection.singular}'s URI is its own (/${version}/${collection.name}/{id}). ${missing}`,
        parameters: [parentId, ...own.parameters],
        requestBody: {
          required: true,
          content: json(
            ref('schemas', belowParentWriteName(representationName(collection.singular, version), parent.singular)),
          ),
        },
        errors: own.errors.includes('422') ? own404 : [...own404, '422'],
      };
    case 'read':
      return {
        ...own,
        operationId: operationIds.subRead(parent.singular, collection.singular),
        summary: `Read one ${collection.singular} ${ofParent}`,
        description: `${own.description} 404 when the ${collection.singular} belongs to another ${parent.singular}; ${missing}`,
        parameters: [parentId, ...own.parameters],
      };
  }
}
