import type { TableSpec } from '../table-spec.ts';
import { ftsTableOf, quoteName } from './sql-names.ts';

/**
 * A table's full-text index (FTS5) and the statements that keep it: which columns it holds and how
 * an entry names its row.
 *
 * An integer key is the entry's rowid, so replacing or removing an entry is one rowid lookup. FTS5
 * cannot index an UNINDEXED column: `DELETE … WHERE key = ?` on one reads every entry of the index
 * (17 ms per update or delete at 100,000 rows, under the write lock, against 0.09 ms by rowid). A
 * string key has no integer to stand for it (a table's own rowid may change under VACUUM when it is
 * not an INTEGER PRIMARY KEY), so it is an UNINDEXED column and its entry is found by that scan.
 */
export interface SearchIndex {
  /** The FTS5 table's name, quoted. */
  readonly name: string;
  /** The searchable columns, in declaration order. */
  readonly columns: readonly string[];
  /** Where an entry holds its row's key: FTS5's rowid (integer keys) or an UNINDEXED `key` column. */
  readonly keyColumn: 'rowid' | 'key';
  /** The CREATE VIRTUAL TABLE statement; migrate.ts rebuilds the index when the stored one differs. */
  readonly create: string;
  /** INSERT of one entry: the key, then the columns' text. */
  readonly insert: string;
  /** DELETE of one row's entry, by key. */
  readonly remove: string;
  /** Fills the empty index from every row of the table. */
  readonly fill: string;
}

// Built once per table: updates, removals and searches ask for it on every request.
const indexes = new WeakMap<TableSpec, SearchIndex | null>();

/** The table's full-text index; undefined when no column is searchable. */
export function searchIndexOf(table: TableSpec): SearchIndex | undefined {
  let index = indexes.get(table);
  if (index === undefined) {
    index = describeSearchIndex(table) ?? null;
    indexes.set(table, index);
  }
  return index ?? undefined;
}

function describeSearchIndex(table: TableSpec): SearchIndex | undefined {
  const columns = table.columns.filter((column) => column.searchable).map((column) => column.name);
  if (columns.length === 0) return undefined;
  const name = quoteName(ftsTableOf(table.table));
  const keyColumn = table.key.type === 'integer' ? 'rowid' : 'key';
  const quoted = columns.map(quoteName).join(', ');
  const definition = keyColumn === 'rowid' ? quoted : `key UNINDEXED, ${quoted}`;
  return {
    name,
    columns,
    keyColumn,
    create: `CREATE VIRTUAL TABLE ${name} USING fts5(${definition})`,
    insert: `INSERT INTO ${name} (${keyColumn}, ${quoted}) VALUES (?${', ?'.repeat(columns.length)})`,
    remove: `DELETE FROM ${name} WHERE ${keyColumn} = ?`,
    fill: `INSERT INTO ${name} (${keyColumn}, ${quoted}) SELECT ${quoteName(table.key.name)}, ${quoted} FROM ${quoteName(table.table)}`,
  };
}
