import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import { dependencyFaultOf } from '../errors/index.ts';
import { PostgresTokenStore, SqliteTokenStore, TOKEN_TABLES, type TokenStore } from '../auth/index.ts';
import { JOB_TABLES, PostgresJobTable, SqliteJobTable, type JobTable } from '../jobs/index.ts';
import { PostgresSettingsStore, SETTINGS_TABLES, SqliteSettingsStore, type SettingsStore } from '../settings/index.ts';
import {
  IN_MEMORY,
  openDatabase,
  parseDatabaseUrl,
  SqliteResourceStore,
  type ResourceStore,
  type SearchOptions,
  type TableSpec,
} from '../storage/index.ts';
import { connectPostgres, DEFAULT_POOL_SIZE } from '../storage/postgres/connect.ts';
import { checkSqliteReady } from '../storage/sqlite/database-file.ts';
import { migrateTables, underMigrationLock } from '../storage/postgres/migrate.ts';
import { PostgresResourceStore } from '../storage/postgres/postgres-store.ts';
import { parseMigration, type MigrationSource } from '../storage/migrations/migration.ts';
import { applySqliteMigrations, checkSqliteSchema } from '../storage/sqlite/apply-migrations.ts';
import { applyPostgresMigrations, checkPostgresSchema } from '../storage/postgres/apply-migrations.ts';
import { RATE_LIMIT_TABLES } from '../limits/index.ts';

/**
 * Everything a server keeps in its database, on one engine: the resources, tokens, settings and jobs.
 * `pool` is there on PostgreSQL, where the call-limit counters can live too.
 */
export interface Backend {
  readonly engine: 'sqlite' | 'postgres';
  readonly store: ResourceStore;
  readonly tokens: TokenStore;
  readonly settings: SettingsStore;
  readonly jobs: JobTable;
  readonly pool?: pg.Pool;
  /** Something an operator should know about how the database was opened (logged at start as a warning). */
  readonly warning?: string;
  /**
   * Resolves (or returns) when the database answers a query, and on SQLite when its file is still
   * the one opened and its disk has room; readiness checks it.
   */
  ping(): unknown;
  close(): Promise<void>;
}

export interface OpenBackendOptions {
  /** The resource tables to create or migrate before anything is served. */
  readonly tables: readonly TableSpec[];
  /**
   * The project's migrations (migrations/*.json, listed by generated/api.ts), applied in order where
   * the database has not recorded them. Without them, tables and columns are only ever added.
   * Either way the tables are then compared with `tables`, and a difference stops the opening.
   */
  readonly migrations?: readonly MigrationSource[];
  /** PostgreSQL connections kept at most (DATABASE_POOL_SIZE). */
  readonly poolSize?: number;
  /** How searches are bounded (SEARCH_TIMEOUT_MS, SEARCH_THREADS). */
  readonly search?: SearchOptions;
}

/**
 * Opens the database DATABASE_URL names and brings every table up to date: SQLite through node:sqlite
 * (the tables each store makes at once), PostgreSQL through a pg pool, each migration in a transaction
 * that one instance at a time runs. An unreachable PostgreSQL, refused credentials or a missing
 * database reject with a DatabaseUnavailableError of one sentence; a migration that fails with a
 * MigrationFailedError, tables that differ from the definitions with a SchemaMismatchError.
 */
export async function openBackend(
  databaseUrl: string,
  { tables, migrations, poolSize = DEFAULT_POOL_SIZE, search = {} }: OpenBackendOptions,
): Promise<Backend> {
  const location = parseDatabaseUrl(databaseUrl);
  const plans = migrations?.map(parseMigration);
  if (location.kind === 'sqlite') {
    const { db, exclusive } = openSqliteFile(location.path, location.createFolder);
    try {
      if (plans !== undefined) applySqliteMigrations(db, plans);
    } catch (error) {
      db.close();
      throw error;
    }
    // Held exclusively, the file cannot take the connections of the turn's snapshot and the search threads.
    const store = new SqliteResourceStore(db, {
      ...(location.path === IN_MEMORY || exclusive ? {} : { file: location.path }),
      search,
    });
    try {
      if (plans === undefined) store.migrate(tables);
      checkSqliteSchema(db, tables);
    } catch (error) {
      await store.close();
      throw error;
    }
    return {
      engine: 'sqlite',
      ...(exclusive
        ? {
            warning:
              'the database disk is full: the database is opened for this process alone (the token CLI cannot use it) and serves reads; writes answer 503 until there is room, and a restart then shares the file again',
          }
        : {}),
      store,
      tokens: new SqliteTokenStore(db),
      settings: new SqliteSettingsStore(db),
      jobs: new SqliteJobTable(db),
      ping: () => checkSqliteReady(db),
      close: async () => store.close(),
    };
  }
  const pool = await connectPostgres(location.url, { size: poolSize });
  try {
    await underMigrationLock(pool, async (client) => {
      await client.query(TOKEN_TABLES);
      await client.query(JOB_TABLES);
      await client.query(SETTINGS_TABLES);
      await client.query(RATE_LIMIT_TABLES);
      if (plans === undefined) await migrateTables(client, tables);
    });
    if (plans !== undefined) await applyPostgresMigrations(pool, plans);
    await checkPostgresSchema(pool, tables);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const store = new PostgresResourceStore(pool, { search });
  return {
    engine: 'postgres',
    store,
    tokens: new PostgresTokenStore(pool),
    settings: new PostgresSettingsStore(pool),
    jobs: new PostgresJobTable(pool),
    pool,
    ping: () => pool.query('SELECT 1'),
    close: () => store.close(),
  };
}

/**
 * Opens a SQLite database for the server. On a full disk SQLite cannot make the `-shm` file that WAL
 * mode shares between processes (a clean shutdown removes it), and the open fails with an I/O error:
 * the server then holds the file alone, its WAL index in memory, so that it starts and serves reads
 * rather than fail to start until someone frees space.
 */
function openSqliteFile(path: string, createFolder: boolean): { db: DatabaseSync; exclusive: boolean } {
  try {
    return { db: openDatabase(path, { createFolder }), exclusive: false };
  } catch (error) {
    const fault = dependencyFaultOf(error);
    if (path === IN_MEMORY || (fault !== 'disk_full' && fault !== 'io_error')) throw error;
    return { db: openDatabase(path, { createFolder, exclusive: true }), exclusive: true };
  }
}

/** The token store alone, for the token CLI: the same database and tables as the server's. */
export async function openTokenStore(databaseUrl: string): Promise<{ tokens: TokenStore; close(): Promise<void> }> {
  const backend = await openBackend(databaseUrl, { tables: [], poolSize: 2 });
  return { tokens: backend.tokens, close: () => backend.close() };
}
