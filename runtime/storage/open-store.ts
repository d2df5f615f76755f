import { parseDatabaseUrl } from './database-url.ts';
import type { ResourceStore } from './resource-store.ts';
import { openDatabase } from './sqlite/open-database.ts';
import { SqliteResourceStore } from './sqlite/sqlite-store.ts';
import type { DatabaseSync } from 'node:sqlite';

export interface OpenedStore {
  readonly store: ResourceStore;
  /** The SQLite handle shared by the token, job and settings tables. */
  readonly db: DatabaseSync;
}

/** Opens the store DATABASE_URL names. PostgreSQL is not available yet and says so at start-up. */
export function openStore(databaseUrl: string | undefined): OpenedStore {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.kind === 'postgres') {
    throw new Error('DATABASE_URL names PostgreSQL, which this version cannot serve yet; use sqlite:<path>');
  }
  const db = openDatabase(location.path, { createFolder: location.createFolder });
  return { store: new SqliteResourceStore(db), db };
}
