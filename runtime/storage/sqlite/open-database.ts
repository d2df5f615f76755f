import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

export interface OpenDatabaseOptions {
  /** How long a writer waits for another process's lock before failing, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * Create the file's folder when it does not exist. Default false: a path whose folder is missing
   * is refused (a mistyped DATABASE_URL should not quietly start an empty database somewhere new).
   */
  createFolder?: boolean;
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
export function openDatabase(path: string, { busyTimeoutMs = 5000, createFolder = false }: OpenDatabaseOptions = {}): DatabaseSync {
  if (path !== IN_MEMORY) {
    const folder = dirname(path);
    if (createFolder) mkdirSync(folder, { recursive: true });
    else if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      throw new DatabasePathError(`the folder of the database file ${path} (${folder}) does not exist; create it, or correct DATABASE_URL`);
    }
  }
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
  const { begin, commit, rollback } = transactionStatementsOf(db);
  begin.run();
  try {
    const result = work();
    commit.run();
    return result;
  } catch (error) {
    rollback.run();
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
    statements = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') };
    transactionStatements.set(db, statements);
  }
  return statements;
}
