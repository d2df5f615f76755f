import type { DatabaseSync } from 'node:sqlite';
import type { ColumnKind, TableSpec } from '../table-spec.ts';
import { defaultClause } from '../column-default.ts';
import { ftsTableOf, quoteName } from './sql-names.ts';
import { searchIndexOf } from './search-index.ts';

/** The SQLite type of each kind of column (the start's schema check compares them too). */
export const COLUMN_TYPES: Record<ColumnKind, string> = {
  string: 'TEXT',
  time: 'TEXT',
  integer: 'INTEGER',
  number: 'REAL',
  boolean: 'INTEGER',
  reference: 'ANY',
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
    db.exec(`CREATE TABLE IF NOT EXISTS ${name} (${keyDefinition(table)}, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`);
    const existing = new Set(
      (db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]).map((column) => column.name),
    );
    for (const column of table.columns) {
      if (!existing.has(column.name)) {
        db.exec(`ALTER TABLE ${name} ADD COLUMN ${quoteName(column.name)} ${COLUMN_TYPES[column.kind]}${defaultClause(column, SQLITE_BOOLEANS)}`);
      }
      const indexName = quoteName(`${table.table}__${column.name}`);
      if (column.unique) db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${indexName} ON ${name} (${quoteName(column.name)})`);
      else if (column.indexed) db.exec(`CREATE INDEX IF NOT EXISTS ${indexName} ON ${name} (${quoteName(column.name)})`);
    }
    migrateSearchIndex(db, table);
  }
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
