import type { ColumnSpec, TableSpec } from '@convapi/runtime/migrations';
import { defaultIdentifierName } from './defaults.ts';
import type { ResolvedAggregate, ResolvedCollection, ResolvedField, ResolvedModel } from './types.ts';

/** A stored table and the declaration it comes from (where migrations and their lint look). */
export interface DeclaredTable {
  readonly spec: TableSpec;
  readonly source: string;
  /** The stored fields, for their positions and former names. */
  readonly fields: readonly ResolvedField[];
  /** The table's former name (a collection's renamedFrom). */
  readonly renamedFrom?: string;
}

/** One column per stored field (a version shape's own nested objects are not stored fields). */
function columnsOf(fields: readonly ResolvedField[], ruled: ReadonlySet<string> = new Set()): ColumnSpec[] {
  return fields.map((field) => ({
    name: field.name,
    // An array or a nested object is stored as JSON in one column.
    kind: (field.kind === 'array' || field.kind === 'object' ? 'json' : field.kind) as ColumnSpec['kind'],
    unique: field.unique,
    // References are indexed: a delete counts the rows that still refer to its row. An array of
    // references too, on PostgreSQL (a GIN index serves the containment the delete's count reads;
    // SQLite indexes no array). A column a row rule compares is indexed: the rule is part of every read's WHERE.
    indexed: field.filterable || field.references !== undefined || ruled.has(field.name),
    ...(field.sortable ? { sortable: true } : {}),
    searchable: field.searchable,
    ...(field.default === undefined ? {} : { default: field.default }),
  }));
}

/** The table a collection is stored in, named after it. */
export function collectionTable(collection: ResolvedCollection): TableSpec {
  const { name, type, assignedBy } = collection.identifier;
  return {
    table: collection.name,
    key: { name, type, generated: assignedBy === 'server' },
    columns: columnsOf(collection.fields, new Set(collection.rows?.fields.map((field) => field.name))),
  };
}

/** The table of an aggregate, `<parent>__<name>`, keyed by its parent's identifier. */
export function aggregateTable(aggregate: ResolvedAggregate, parent: ResolvedCollection | undefined): TableSpec {
  const key = {
    name: parent?.identifier.name ?? defaultIdentifierName(aggregate.parent),
    type: parent?.identifier.type ?? 'integer',
    generated: false,
  };
  return { table: `${aggregate.parent}__${aggregate.name}`, key, columns: columnsOf(aggregate.fields) };
}

/** Every table the model stores, sorted by name. */
export function declaredTables(model: ResolvedModel): DeclaredTable[] {
  return [
    ...model.collections.map((collection) => ({
      spec: collectionTable(collection),
      source: collection.source,
      fields: collection.fields,
      ...(collection.renamedFrom === undefined ? {} : { renamedFrom: collection.renamedFrom }),
    })),
    ...model.aggregates.map((aggregate) => {
      const parent = model.collections.find((collection) => collection.name === aggregate.parent);
      // A renamed parent renames its aggregates' tables.
      const renamedFrom =
        parent?.renamedFrom === undefined ? {} : { renamedFrom: `${parent.renamedFrom}__${aggregate.name}` };
      return {
        spec: aggregateTable(aggregate, parent),
        source: aggregate.source,
        fields: aggregate.fields,
        ...renamedFrom,
      };
    }),
  ].sort((a, b) => a.spec.table.localeCompare(b.spec.table));
}
