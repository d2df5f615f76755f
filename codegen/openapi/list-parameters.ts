import type { ResolvedCollection, ResolvedField } from '../model/index.ts';
import type { JsonSchema } from './schema-of.ts';

/** The comparisons of a filterable integer, number or time field: `fee.gte=10` (runtime: list-query.ts). */
const RANGE_OPERATORS = [
  ['gt', 'greater than'],
  ['gte', 'at least'],
  ['lt', 'less than'],
  ['lte', 'at most'],
] as const;

const COMPARABLE = new Set(['integer', 'number', 'time']);

/** A filter value's schema: the field's type as a query parameter (a time as an ISO 8601 date-time). */
function valueSchema(field: ResolvedField): JsonSchema {
  if (field.kind === 'time') return { type: 'string', format: 'date-time' };
  if (field.values !== undefined) return { type: 'string', enum: [...field.values] };
  return {
    type:
      field.kind === 'integer'
        ? 'integer'
        : field.kind === 'number'
          ? 'number'
          : field.kind === 'boolean'
            ? 'boolean'
            : 'string',
  };
}

/**
 * A reference's example: the referenced collection's identifier, as a client holding one writes it
 * (the word a plain string parameter is given would name no resource, and be refused), given by
 * `identifierExample` (the example of that collection's own identifier parameter).
 */
function referenceExample(field: ResolvedField, identifierExample: IdentifierExample): { example?: string } {
  return field.kind === 'reference' && field.references !== undefined
    ? { example: identifierExample(field.references) }
    : {};
}

/** The example identifier of a collection, by its plural name, as its path parameter gives it. */
export type IdentifierExample = (collection: string) => string;

/**
 * The query parameters of a collection's list besides paging: an equality filter per filterable
 * field, the comparisons of each filterable integer, number or time field, the item of each
 * filterable array (`allergies.contains`), and `sort` over the
 * sortable fields and the identifier. A reference's filter is given the example of the referenced
 * collection's identifier (`identifierExample`).
 */
export function listQueryParameters(
  collection: ResolvedCollection,
  identifierExample: IdentifierExample,
): JsonSchema[] {
  const filterable = collection.fields.filter((field) => field.filterable && field.kind !== 'array');
  const equality = filterable.map((field) => ({
    name: field.name,
    in: 'query',
    description: `Only ${collection.name} whose ${field.name} equals this value${field.kind === 'time' ? ' (any ISO 8601 offset; compared in UTC)' : ''}.`,
    schema: valueSchema(field),
    ...referenceExample(field, identifierExample),
  }));
  const comparisons = filterable
    .filter((field) => COMPARABLE.has(field.kind))
    .flatMap((field) =>
      RANGE_OPERATORS.map(([operator, meaning]) => ({
        name: `${field.name}.${operator}`,
        in: 'query',
        description: `Only ${collection.name} whose ${field.name} is ${meaning} this value${field.kind === 'time' ? ' (any ISO 8601 offset, + encoded as %2B)' : ''}.`,
        schema: valueSchema(field),
      })),
    );
  // An array is filtered by one of its items (runtime: list-query.ts, CONTAINS_OPERATOR).
  const contains = collection.fields
    .filter((field) => field.filterable && field.kind === 'array' && field.items !== undefined)
    .map((field) => ({
      name: `${field.name}.contains`,
      in: 'query',
      description: `Only ${collection.name} whose ${field.name} holds this item${field.items!.kind === 'reference' ? ' (its identifier or URI)' : ''}.`,
      schema: valueSchema(field.items!),
      ...referenceExample(field.items!, identifierExample),
    }));
  const sortable = [
    collection.identifier.name,
    ...collection.fields.filter((field) => field.sortable).map((field) => field.name),
  ];
  const name = `(${sortable.join('|')})`;
  const sort = {
    name: 'sort',
    in: 'query',
    description: `The order of the list: field names separated by commas, each with a leading - to sort it descending (${sortable.join(', ')}). Ties are broken by ${collection.identifier.name}, in the direction of the last name; null sorts first ascending. Default: ${collection.identifier.name} ascending.`,
    schema: { type: 'string', pattern: `^-?${name}(,-?${name})*$` },
    example: `-${sortable.at(-1)!}`,
  };
  return [...equality, ...comparisons, ...contains, sort];
}
