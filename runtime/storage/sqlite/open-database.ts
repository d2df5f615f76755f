import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { assertWritable, rememberFile } from './database-file.ts';

export interface OpenDatabaseOptions {
  /** How long a writer waits for another process's lock before failing, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * Create the file's folder when it does not exist. Default false: a path whose folder is missing
   * is refused (a mistyped DATABASE_URL should not quietly start an empty database somewhere new).
   */
  createFolder?: boolean;
  /**
   * Hold the file for this connection alone (locking_mode EXCLUSIVE), taken before WAL mode: the WAL
   * index then lives in this process's memory, not in the `-shm` file beside the database, which a
   * full disk has no room to create. Other processes cannot open the file meanwhile. Default false.
   */
  exclusive?: boolean;
}

/** A database path that cannot be opened as asked (its folder is missing). */
export class DatabasePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabasePathError';
  }
}

/** The in-memory database's path: it lives inside one process, and dies with it. */
export const IN_MEMORY = ':memory:';

/**
 * Opens (creating if needed) an embedded SQLite database with the durability settings every part of
 * the runtime relies on: WAL so readers never block the writer and two processes can share the file,
 * synchronous=FULL so an acknowledged write survives a power cut, and a busy timeout so concurrent
 * writers queue instead of failing.
 */
export function openDatabase(
  path: string,
  { busyTimeoutMs = 5000, createFolder = false, exclusive = false }: OpenDatabaseOptions = {},
): DatabaseSync {
  if (path !== IN_MEMORY) {
    const folder = dirname(path);
    if (createFolder) mkdirSync(folder, { recursive: true });
    else if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      throw new DatabasePathError(
        `the folder of the database file ${path} (${folder}) does not exist; create it, or correct DATABASE_URL`,
      );
    }
  }
  const db = new DatabaseSync(path, { timeout: busyTimeoutMs });
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    if (exclusive) db.exec('PRAGMA locking_mode = EXCLUSIVE');
    if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  } catch (error) {
    db.close();
    throw error;
  }
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  if (path !== IN_MEMORY) rememberFile(db, path);
  return db;
}

/**
 * Runs `work` in one IMMEDIATE transaction: the write lock is taken up front, so a read-check-write
 * inside `work` cannot interleave with another process's writer. Rolls back on any throw. Every
 * write outside the group commit goes through here, not through a statement in autocommit mode:
 * node:sqlite's `get()` of an `INSERT/UPDATE … RETURNING` in autocommit hands back the row even when
 * SQLite then fails to commit it (a full disk), while a failed COMMIT here throws. The file must
 * still be the one opened (database-file.ts).
 */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  // Inside a transaction already (a job queued by a write's own work): part of it, committed with it.
  if (db.isTransaction) return work();
  const { begin, commit, rollback } = transactionStatementsOf(db);
  assertWritable(db);
  begin.run();
  try {
    const result = work();
    commit.run();
    return result;
  } catch (error) {
    // SQLite may have rolled back already (a full disk, an I/O error): nothing is left to undo.
    if (db.isTransaction) rollback.run();
    throw error;
  }
}

export interface TransactionStatements {
  readonly begin: StatementSync;
  readonly commit: StatementSync;
  readonly rollback: StatementSync;
}

// Prepared once per connection: every write runs a transaction, and exec() parses its SQL each time.
const transactionStatements = new WeakMap<DatabaseSync, TransactionStatements>();

/** BEGIN IMMEDIATE, COMMIT and ROLLBACK on `db`, prepared once per connection (inTransaction, group-commit.ts). */
export function transactionStatementsOf(db: DatabaseSync): TransactionStatements {
  let statements = transactionStatements.get(db);
  if (statements === undefined) {
    statements = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
    transactionStatements.set(db, statements);
  }
  return statements;
}
