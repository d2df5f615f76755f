import { existsSync } from 'node:fs';
import { connectPostgres } from '../storage/postgres/connect.ts';
import { appliedPostgresMigrations } from '../storage/postgres/apply-migrations.ts';
import { postgresMigrationStatements } from '../storage/postgres/migration-sql.ts';
import { parseMigration, type Migration, type MigrationSource } from '../storage/migrations/migration.ts';
import { printStatements } from '../storage/migrations/statements.ts';
import type { AppliedMigration } from '../storage/migrations/status.ts';
import { IN_MEMORY, openDatabase } from '../storage/sqlite/open-database.ts';
import { appliedSqliteMigrations } from '../storage/sqlite/apply-migrations.ts';
import { sqliteMigrationStatements } from '../storage/sqlite/migration-sql.ts';
import { parseDatabaseUrl } from '../storage/database-url.ts';

/** Where a database stands against a project's migrations (`convapi migrate status` and `--dry-run`). */
export interface MigrationStatus {
  readonly engine: 'sqlite' | 'postgres';
  /** What the database records as applied, oldest first (ids a project no longer has included). */
  readonly applied: readonly AppliedMigration[];
  /** The project's migrations the database has not recorded, in the order a start applies them, each with its SQL. */
  readonly pending: readonly { readonly id: string; readonly sql: string }[];
}

/**
 * Reads the migrations table of the database DATABASE_URL names, changing nothing (a SQLite file that
 * does not exist yet has applied nothing), and the SQL each pending migration would run on its engine.
 */
export async function migrationStatus(
  databaseUrl: string,
  sources: readonly MigrationSource[],
): Promise<MigrationStatus> {
  const migrations = sources.map(parseMigration);
  const location = parseDatabaseUrl(databaseUrl);
  let applied: AppliedMigration[];
  if (location.kind === 'sqlite') {
    if (location.path === IN_MEMORY || !existsSync(location.path)) applied = [];
    else {
      const db = openDatabase(location.path);
      try {
        applied = appliedSqliteMigrations(db);
      } finally {
        db.close();
      }
    }
  } else {
    const pool = await connectPostgres(location.url, { size: 1 });
    try {
      applied = await appliedPostgresMigrations(pool);
    } finally {
      await pool.end();
    }
  }
  const done = new Set(applied.map((migration) => migration.id));
  const statementsOf = (migration: Migration) =>
    location.kind === 'sqlite' ? sqliteMigrationStatements(migration) : postgresMigrationStatements(migration);
  const pending = migrations
    .filter((migration) => !done.has(migration.id))
    .map((migration) => ({ id: migration.id, sql: printStatements(statementsOf(migration)) }));
  return { engine: location.kind, applied, pending };
}
