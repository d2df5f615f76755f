import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export interface OpenDatabaseOptions {
  /** How long a writer waits for another process's lock before failing, in ms. Default 5000. */
  busyTimeoutMs?: number;
}

/**
 * Opens (creating if needed) an embedded SQLite database with the durability settings every part of
 * the runtime relies on: WAL so readers never block the writer and two processes can share the file,
 * synchronous=FULL so an acknowledged write survives a power cut, and a busy timeout so concurrent
 * writers queue instead of failing.
 */
export function openDatabase(path: string, { busyTimeoutMs = 5000 }: OpenDatabaseOptions = {}): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: busyTimeoutMs });
  db.exec(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  return db;
}

/**
 * Runs `work` in one IMMEDIATE transaction: the write lock is taken up front, so a read-check-write
 * inside `work` cannot interleave with another process's writer. Rolls back on any throw.
 */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
