import type { DatabaseSync } from 'node:sqlite';
import type { ColumnKind, IndexedColumn, TableSpec } from '../table-spec.ts';
import { defaultClause } from '../column-default.ts';
import { ftsTableOf, quoteName } from './sql-names.ts';
import { searchIndexOf } from './search-index.ts';
import { sortIndexName } from '../list-shape.ts';

/** The SQLite type of each kind of column (the start's schema check compares them too). */
export const COLUMN_TYPES: Record<ColumnKind, string> = {
  string: 'TEXT',
  time: 'TEXT',
  integer: 'INTEGER',
  number: 'REAL',
  boolean: 'INTEGER',
  reference: 'ANY',
  json: 'TEXT',
};

/** Booleans are stored as 0 and 1 (see column-values.ts). */
export const SQLITE_BOOLEANS = { true: '1', false: '0' };

/**
 * Brings the database up to the declared tables without losing data: creates missing tables,
 * adds columns for fields declared since (nullable, so existing rows stay readable; with the field's
 * default when it has one, which existing rows then hold), and creates
 * unique, filter and full-text indexes. Nothing is ever dropped.
 */
export function migrateTables(db: DatabaseSync, tables: readonly TableSpec[]): void {
  for (const table of tables) {
    const name = quoteName(table.table);
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${name} (${keyDefinition(table)}, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`,
    );
    const existing = new Set(
      (db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]).map((column) => column.name),
    );
    for (const column of table.columns) {
      if (!existing.has(column.name)) {
        db.exec(
          `ALTER TABLE ${name} ADD COLUMN ${quoteName(column.name)} ${COLUMN_TYPES[column.kind]}${defaultClause(column, SQLITE_BOOLEANS)}`,
        );
      }
      const index = createIndexSql(table, column);
      if (index !== undefined) db.exec(index);
    }
    migrateSearchIndex(db, table);
  }
}

/**
 * The statement making a column's index, if it has one: unique; `(column, key)` for a sortable column
 * (a sorted page reads it in order, ties by the key, and it serves ranges and equality too); or
 * `(column)` for an equality filter. An array (json) has none: its containment filter reads each
 * row's items, which no index of SQLite's serves. The migrations make the same (migration-sql.ts).
 */
export function createIndexSql(table: TableSpec, column: IndexedColumn): string | undefined {
  const name = quoteName(table.table);
  if (table.columns.find((candidate) => candidate.name === column.name)?.kind === 'json') return undefined;
  if (column.unique)
    return `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteName(`${table.table}__${column.name}`)} ON ${name} (${quoteName(column.name)})`;
  if (column.sortable === true)
    return `CREATE INDEX IF NOT EXISTS ${quoteName(sortIndexName(table.table, column.name))} ON ${name} (${quoteName(column.name)}, ${quoteName(table.key.name)})`;
  if (column.indexed)
    return `CREATE INDEX IF NOT EXISTS ${quoteName(`${table.table}__${column.name}`)} ON ${name} (${quoteName(column.name)})`;
  return undefined;
}

/** The key column's definition: a generated integer key is AUTOINCREMENT, so an id is never reused. */
export function keyDefinition(table: TableSpec): string {
  const key = quoteName(table.key.name);
  return table.key.type === 'integer' && table.key.generated
    ? `${key} INTEGER PRIMARY KEY AUTOINCREMENT`
    : `${key} ${table.key.type === 'integer' ? 'INTEGER' : 'TEXT'} PRIMARY KEY NOT NULL`;
}

/**
 * The full-text index of a table (search-index.ts). Rebuilt from the table when its definition
 * changes: FTS5 tables cannot gain columns, and an index of an earlier layout (integer keys in an
 * UNINDEXED column before they became the rowid) is replaced by the current one.
 */
function migrateSearchIndex(db: DatabaseSync, table: TableSpec): void {
  const index = searchIndexOf(table);
  const fts = ftsTableOf(table.table);
  const current = db.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(fts) as { sql: string } | undefined;
  if (current?.sql === index?.create) return;
  if (current !== undefined) db.exec(`DROP TABLE ${quoteName(fts)}`);
  if (index === undefined) return;
  db.exec(index.create);
  db.exec(index.fill);
}
