import type { DatabaseSync } from 'node:sqlite';
import type { Migration } from '../migrations/migration.ts';
import { checkSchema } from '../migrations/schema-check.ts';
import { MigrationFailedError, type MigrationStatement } from '../migrations/statements.ts';
import type { AppliedMigration } from '../migrations/status.ts';
import type { TableSpec } from '../table-spec.ts';
import { isoNow } from '../time.ts';
import { COLUMN_TYPES } from './migrate.ts';
import { sqliteMigrationStatements } from './migration-sql.ts';
import { inTransaction } from './open-database.ts';
import { quoteName } from './sql-names.ts';

/** What ran, when: one row per applied migration. */
export const MIGRATIONS_TABLE = 'convapi_migrations';
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`;

/** The migrations the database records as applied, oldest first (none when it has no migrations table). */
export function appliedSqliteMigrations(db: DatabaseSync): AppliedMigration[] {
  if (db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(MIGRATIONS_TABLE) === undefined)
    return [];
  const rows = db.prepare(`SELECT id, applied_at FROM ${MIGRATIONS_TABLE} ORDER BY applied_at, id`).all() as {
    id: string;
    applied_at: string;
  }[];
  return rows.map((row) => ({ id: row.id, appliedAt: row.applied_at }));
}

/**
 * Applies the migrations the database has not recorded, in order, one transaction each (BEGIN
 * IMMEDIATE: the write lock, so a second process starting at once waits, then finds it recorded and
 * skips it). A migration that fails or is stopped by a check changes nothing and throws
 * MigrationFailedError. Returns the ids applied.
 */
export function applySqliteMigrations(db: DatabaseSync, migrations: readonly Migration[]): string[] {
  const applied: string[] = [];
  for (const migration of migrations) {
    const ran = inTransaction(db, () => {
      db.exec(CREATE_MIGRATIONS_TABLE);
      if (db.prepare(`SELECT 1 FROM ${MIGRATIONS_TABLE} WHERE id = ?`).get(migration.id) !== undefined) return false;
      for (const statement of sqliteMigrationStatements(migration)) execute(db, migration, statement);
      db.prepare(`INSERT INTO ${MIGRATIONS_TABLE} (id, applied_at) VALUES (?, ?)`).run(migration.id, isoNow());
      return true;
    });
    if (ran) applied.push(migration.id);
  }
  return applied;
}

function execute(db: DatabaseSync, migration: Migration, statement: MigrationStatement): void {
  try {
    if (statement.kind === 'run') {
      db.exec(statement.sql);
      return;
    }
    const row = db.prepare(statement.sql).get() as { key: unknown; value: unknown } | undefined;
    if (row !== undefined) throw new MigrationFailedError(statement.message(row));
  } catch (error) {
    if (error instanceof MigrationFailedError) throw error;
    throw new MigrationFailedError(
      `migration ${migration.id} failed, changing nothing: ${(error as Error).message} (in: ${statement.sql})`,
    );
  }
}

/** Throws SchemaMismatchError when the database's tables are not what `tables` declare (schema-check.ts). */
export function checkSqliteSchema(db: DatabaseSync, tables: readonly TableSpec[]): void {
  checkSchema(
    tables,
    (table) => {
      const columns = db.prepare(`PRAGMA table_info(${quoteName(table)})`).all() as { name: string; type: string }[];
      return columns.length === 0
        ? undefined
        : new Map(columns.map((column) => [column.name, column.type.toLowerCase()]));
    },
    { columns: COLUMN_TYPES, key: { integer: 'INTEGER', string: 'TEXT' } },
  );
}
