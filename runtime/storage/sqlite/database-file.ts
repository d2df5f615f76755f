import { statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { DependencyUnavailableError } from '../../errors/index.ts';

/**
 * Below this many free bytes on the database's file system, readiness reports the disk full: a
 * write transaction appends its pages to the WAL, and a checkpoint needs room too, so a disk this
 * close to full fails the next writes (SQLITE_FULL) while reads still work.
 */
export const MIN_FREE_BYTES = 1024 * 1024;

/**
 * The database file a connection was opened on, known by its device and inode. SQLite in WAL mode
 * keeps writing into a file that was unlinked (its folder removed) or replaced by another one (a
 * restore copied over it) and reports success: those writes are lost at the next restart. Comparing
 * the path's device and inode with the opened file's before each write transaction refuses them
 * (503 dependency_unavailable, `file_replaced`) before anything is acknowledged into the lost file.
 */
export class DatabaseFile {
  readonly path: string;
  readonly #device: number;
  readonly #inode: number;

  constructor(path: string) {
    this.path = path;
    const opened = statSync(path);
    this.#device = opened.dev;
    this.#inode = opened.ino;
  }

  /** Throws 503 dependency_unavailable (file_replaced) when the path no longer names the opened file. */
  assertUnchanged(): void {
    const now = statSync(this.path, { throwIfNoEntry: false });
    if (now === undefined || now.dev !== this.#device || now.ino !== this.#inode)
      throw new DependencyUnavailableError('store', 'file_replaced');
  }

  /** Throws 503 dependency_unavailable (disk_full) when the file system has less than MIN_FREE_BYTES free. */
  assertRoomLeft(): void {
    const { bavail, bsize } = statfsSync(dirname(this.path));
    if (bavail * bsize < MIN_FREE_BYTES) throw new DependencyUnavailableError('store', 'disk_full');
  }
}

// The file each connection was opened on; connections to `:memory:` have none.
const filesOf = new WeakMap<DatabaseSync, DatabaseFile>();

/** Remembers the file `db` was opened on (openDatabase() does, once the file exists). */
export function rememberFile(db: DatabaseSync, path: string): void {
  filesOf.set(db, new DatabaseFile(path));
}

/** The file `db` was opened on, undefined for an in-memory database. */
export function fileOf(db: DatabaseSync): DatabaseFile | undefined {
  return filesOf.get(db);
}

/** Every write transaction on `db` begins with this: its file must still be the one opened. */
export function assertWritable(db: DatabaseSync): void {
  filesOf.get(db)?.assertUnchanged();
}

/**
 * Readiness of a SQLite store: the connection answers, its file is still the one opened, and the
 * disk has room for writes. Throws the 503 a request meeting the same fault would get.
 */
export function checkSqliteReady(db: DatabaseSync): void {
  db.prepare('SELECT 1').get();
  const file = filesOf.get(db);
  file?.assertUnchanged();
  file?.assertRoomLeft();
}
