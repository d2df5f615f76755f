import type pg from 'pg';
import type { Migration } from '../migrations/migration.ts';
import { checkSchema } from '../migrations/schema-check.ts';
import { MigrationFailedError, type MigrationStatement } from '../migrations/statements.ts';
import type { AppliedMigration } from '../migrations/status.ts';
import type { TableSpec } from '../table-spec.ts';
import { isoNow } from '../time.ts';
import { COLUMN_TYPES, underMigrationLock } from './migrate.ts';
import { postgresMigrationStatements } from './migration-sql.ts';

/** What ran, when: one row per applied migration. */
export const MIGRATIONS_TABLE = 'convapi_migrations';
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (id text PRIMARY KEY, applied_at text NOT NULL)`;

/** The migrations the database records as applied, oldest first (none when it has no migrations table). */
export async function appliedPostgresMigrations(client: pg.Pool | pg.PoolClient): Promise<AppliedMigration[]> {
  const { rows: exists } = await client.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [MIGRATIONS_TABLE]);
  if (exists[0]?.present !== true) return [];
  const { rows } = await client.query<{ id: string; applied_at: string }>(
    `SELECT id, applied_at FROM ${MIGRATIONS_TABLE} ORDER BY applied_at, id`,
  );
  return rows.map((row) => ({ id: row.id, appliedAt: row.applied_at }));
}

/**
 * Applies the migrations the database has not recorded, in order, each in its own transaction under
 * the migration lock: instances starting at once apply each migration once (the others wait, then
 * find it recorded). DDL is transactional in PostgreSQL: a migration that fails or is stopped by a
 * check changes nothing and throws MigrationFailedError. Returns the ids applied.
 */
export async function applyPostgresMigrations(pool: pg.Pool, migrations: readonly Migration[]): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrations) {
    await underMigrationLock(pool, async (client) => {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const { rowCount } = await client.query(`SELECT 1 FROM ${MIGRATIONS_TABLE} WHERE id = $1`, [migration.id]);
      if (rowCount !== 0) return;
      for (const statement of postgresMigrationStatements(migration)) await execute(client, migration, statement);
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (id, applied_at) VALUES ($1, $2)`, [migration.id, isoNow()]);
      applied.push(migration.id);
    });
  }
  return applied;
}

async function execute(client: pg.PoolClient, migration: Migration, statement: MigrationStatement): Promise<void> {
  try {
    if (statement.kind === 'run') {
      await client.query(statement.sql);
      return;
    }
    const { rows } = await client.query<{ key: unknown; value: unknown }>(statement.sql);
    if (rows[0] !== undefined) throw new MigrationFailedError(statement.message(rows[0]));
  } catch (error) {
    if (error instanceof MigrationFailedError) throw error;
    throw new MigrationFailedError(
      `migration ${migration.id} failed, changing nothing: ${(error as Error).message} (in: ${statement.sql})`,
    );
  }
}

/** Throws SchemaMismatchError when the database's tables are not what `tables` declare (schema-check.ts). */
export async function checkPostgresSchema(pool: pg.Pool, tables: readonly TableSpec[]): Promise<void> {
  const { rows } = await pool.query<{ table_name: string; column_name: string; data_type: string }>(
    'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ANY($1)',
    [tables.map((table) => table.table)],
  );
  const live = new Map<string, Map<string, string>>();
  for (const row of rows) {
    let columns = live.get(row.table_name);
    if (columns === undefined) live.set(row.table_name, (columns = new Map()));
    columns.set(row.column_name, row.data_type.toLowerCase());
  }
  checkSchema(tables, (table) => live.get(table), {
    columns: COLUMN_TYPES,
    key: { integer: 'bigint', string: 'text' },
  });
}
