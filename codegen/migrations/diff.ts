import { conversionOf, CONVERSIONS, type ColumnSpec, type MigrationStep, type TableSpec } from '@convapi/runtime/migrations';
import type { DeclaredTable } from '../model/tables.ts';

/** A difference between the definitions and the last migration's schema, where it is declared. */
export interface SchemaChange {
  readonly source: string;
  /** The property path of the declaration to point at (`['fields', 'phone']`). */
  readonly at: readonly string[];
  /** What changed, in words (`orders.phone changes from string to integer`). */
  readonly change: string;
  /** Why no migration can be written for it (a conversion the toolkit has not), if so. */
  readonly refused?: string;
  /** The data a migration of it loses, if any: a removal is written only with --accept-data-loss, and a narrowing conversion loses values only with it. */
  readonly loses?: string;
}

/** The steps from one schema to the declared one, and the changes they make, in definition terms. */
export interface SchemaDiff {
  readonly steps: MigrationStep[];
  readonly changes: SchemaChange[];
}

/** A column's index, as the engines make it (createIndexSql): unique first, then a sortable column's `(column, key)`, then a filter's. */
type IndexKind = 'unique' | 'sorted' | 'filter' | undefined;
const indexOf = (column: ColumnSpec | undefined): IndexKind =>
  column === undefined ? undefined : column.unique ? 'unique' : column.sortable === true ? 'sorted' : column.indexed ? 'filter' : undefined;
/** The add-index and drop-index steps of an index of that kind (`sorted` only when it is one, so the files of other indexes stay as they were). */
const addIndex = (table: string, column: string, kind: Exclude<IndexKind, undefined>): MigrationStep => ({ op: 'add-index', table, column, unique: kind === 'unique', ...(kind === 'sorted' ? { sorted: true } : {}) });
const dropIndex = (table: string, column: string, kind: IndexKind): MigrationStep => ({ op: 'drop-index', table, column, ...(kind === 'sorted' ? { sorted: true } : {}) });
const searchOf = (table: TableSpec) => table.columns.filter((column) => column.searchable).map((column) => column.name);

/**
 * Compares the schema the last migration left (`before`) with the tables the definitions declare.
 * Renames come from the definitions (`renamedFrom`): without one, a new name is an added column or
 * table and the old one a removed one. Conversions are those of the runtime's CONVERSIONS; a
 * narrowing one stops at a value that does not convert unless data loss is accepted, which then
 * empties such values. `snapshotSource` is where a removed table is reported (no definition has it).
 */
export function diffSchema(before: readonly TableSpec[], declared: readonly DeclaredTable[], { acceptDataLoss, snapshotSource }: { readonly acceptDataLoss: boolean; readonly snapshotSource: string }): SchemaDiff {
  const old = new Map(before.map((table) => [table.table, table]));
  const declaredNames = new Set(declared.map((table) => table.spec.table));
  const changes: SchemaChange[] = [];
  const first: MigrationStep[] = [];
  const renames: MigrationStep[] = [];
  const removals: MigrationStep[] = [];
  const creations: MigrationStep[] = [];
  const alterations: MigrationStep[] = [];

  // The former table of each declared one (itself, or the one it declares it was renamed from).
  const formerOf = new Map<string, TableSpec>();
  for (const table of declared) {
    const name = table.spec.table;
    const from = table.renamedFrom;
    if (!old.has(name) && from !== undefined && old.has(from) && !declaredNames.has(from)) {
      const former = old.get(from)!;
      formerOf.set(name, former);
      // Indexes and the search index are named after their table: they go with the old name and come back with the new one.
      for (const column of former.columns) if (indexOf(column) !== undefined) first.push(dropIndex(from, column.name, indexOf(column)));
      if (searchOf(former).length > 0) first.push({ op: 'search-index', table: from, columns: [] });
      renames.push({ op: 'rename-table', from, to: name });
      changes.push({ source: table.source, at: ['name'], change: `collection table ${from} is renamed ${name}; its rows move` });
    } else if (old.has(name)) formerOf.set(name, old.get(name)!);
  }
  const kept = new Set([...formerOf.values()].map((table) => table.table));

  for (const table of before) {
    if (kept.has(table.table)) continue;
    const loses = `every row of ${table.table}`;
    removals.push({ op: 'drop-table', table: table.table, loses });
    changes.push({ source: snapshotSource, at: ['schema', 'tables', String(before.indexOf(table))], change: `table ${table.table} is no longer declared; removing it loses ${loses} (if its collection was renamed, declare renamedFrom: '${table.table}' on it)`, loses });
  }

  for (const table of declared) {
    const former = formerOf.get(table.spec.table);
    if (former === undefined) {
      creations.push({ op: 'create-table', table: table.spec });
      if (searchOf(table.spec).length > 0) creations.push({ op: 'search-index', table: table.spec.table, columns: searchOf(table.spec) });
      changes.push({ source: table.source, at: ['name'], change: `table ${table.spec.table} is created (a database that has it already keeps it, with its rows)` });
      continue;
    }
    alterations.push(...alterTable(former, table, { renamed: former.table !== table.spec.table, acceptDataLoss, changes }));
  }
  return { steps: [...first, ...renames, ...removals, ...creations, ...alterations], changes };
}

/** The steps that turn one kept table into its declared form (drop-index first, add-index and search-index last). */
function alterTable(former: TableSpec, declared: DeclaredTable, { renamed, acceptDataLoss, changes }: { renamed: boolean; acceptDataLoss: boolean; changes: SchemaChange[] }): MigrationStep[] {
  const table = declared.spec.table;
  const source = declared.source;
  const atField = (name: string) => declared.fields.find((field) => field.name === name)?.access ?? ['fields'];
  if (former.key.name !== declared.spec.key.name || former.key.type !== declared.spec.key.type) {
    changes.push({ source, at: ['identifier'], change: `the identifier of ${table} changes from ${former.key.type} ${former.key.name} to ${declared.spec.key.type} ${declared.spec.key.name}`, refused: 'a migration cannot change an identifier: declare a new collection and move the rows with a job' });
    return [];
  }
  const dropIndexes: MigrationStep[] = [];
  const columnSteps: MigrationStep[] = [];
  const addIndexes: MigrationStep[] = [];
  let structural = renamed;
  const formerNames = new Set(former.columns.map((column) => column.name));
  const declaredNames = new Set(declared.spec.columns.map((column) => column.name));
  // Declared column name → the former column it continues.
  const continues = new Map<string, ColumnSpec>();
  for (const column of declared.spec.columns) {
    const from = declared.fields.find((field) => field.name === column.name)?.renamedFrom;
    if (!formerNames.has(column.name) && from !== undefined && formerNames.has(from) && !declaredNames.has(from)) {
      continues.set(column.name, former.columns.find((candidate) => candidate.name === from)!);
    } else if (formerNames.has(column.name)) continues.set(column.name, former.columns.find((candidate) => candidate.name === column.name)!);
  }
  const continued = new Set([...continues.values()].map((column) => column.name));

  for (const column of former.columns) {
    if (continued.has(column.name)) continue;
    const loses = `the values of ${table}.${column.name} in every row`;
    if (!renamed && indexOf(column) !== undefined) dropIndexes.push(dropIndex(table, column.name, indexOf(column)));
    columnSteps.push({ op: 'drop-column', table, column: column.name, loses });
    structural = true;
    changes.push({ source, at: ['fields'], change: `field ${table}.${column.name} is no longer declared; removing it loses ${loses} (if it was renamed, declare renamedFrom: '${column.name}' on the new field)`, loses });
  }

  for (const column of declared.spec.columns) {
    const was = continues.get(column.name);
    const at = atField(column.name);
    if (was === undefined) {
      columnSteps.push({ op: 'add-column', table, column });
      const kind = indexOf(column);
      if (kind !== undefined) addIndexes.push(addIndex(table, column.name, kind));
      const stored = column.default === undefined ? 'rows stored before hold no value' : `rows stored before hold its default ${JSON.stringify(column.default)}`;
      changes.push({ source, at, change: `field ${table}.${column.name} (${column.kind}) is new; ${stored}` });
      continue;
    }
    let touched = renamed;
    if (was.name !== column.name) {
      columnSteps.push({ op: 'rename-column', table, from: was.name, to: column.name });
      changes.push({ source, at, change: `field ${table}.${was.name} is renamed ${column.name}; its values move` });
      touched = structural = true;
    }
    if (was.kind !== column.kind) {
      const change = `${table}.${column.name} changes from ${was.kind} to ${column.kind}`;
      const conversion = conversionOf(was.kind, column.kind);
      if (conversion === undefined) {
        changes.push({ source, at, change, refused: `no conversion from ${was.kind} to ${column.kind} exists; declare a new field, fill it, then remove this one` });
        continue;
      }
      const narrowing = CONVERSIONS[conversion] === 'narrowing';
      const loses = narrowing && acceptDataLoss ? `the values of ${table}.${column.name} that do not convert` : undefined;
      columnSteps.push({ op: 'convert-column', table, column: column.name, from: was.kind, to: column.kind, unconvertible: loses === undefined ? 'refuse' : 'set-null', ...(loses === undefined ? {} : { loses }) });
      // Without --accept-data-loss a narrowing conversion loses nothing: a value that does not convert stops it.
      changes.push({ source, at, change: loses !== undefined ? `${change}; ${loses} are emptied` : narrowing ? `${change}; a row whose value does not convert stops the migration, changing nothing` : change, ...(loses === undefined ? {} : { loses }) });
      touched = structural = true;
    }
    // An index is named after its table and column: one that changes kind, or whose column is renamed or rebuilt, is made again.
    const before = indexOf(was);
    const after = indexOf(column);
    const remade = touched || before !== after;
    if (before !== undefined && remade && !renamed) dropIndexes.push(dropIndex(table, was.name, before));
    if (after !== undefined && remade) addIndexes.push(addIndex(table, column.name, after));
    if (!touched && before !== after) changes.push({ source, at, change: `the index of ${table}.${column.name} changes from ${before ?? 'none'} to ${after ?? 'none'}` });
  }

  const renamedSearch = renamed ? [] : former.columns.filter((column) => column.searchable).map((column) => [...continues].find(([, was]) => was === column)?.[0] ?? column.name);
  const search = searchOf(declared.spec);
  const searchSteps: MigrationStep[] = [];
  if (renamedSearch.join(',') !== search.join(',') || (structural && search.length > 0)) {
    searchSteps.push({ op: 'search-index', table, columns: search });
    if (!renamed && renamedSearch.join(',') !== search.join(',')) changes.push({ source, at: ['fields'], change: `the searchable fields of ${table} change to ${search.join(', ') || 'none'}` });
  }
  return [...dropIndexes, ...columnSteps, ...addIndexes, ...searchSteps];
}
