import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, SqliteResourceStore, type Row, type TableSpec } from '../../../runtime/storage/index.ts';
import { TurnSnapshot } from '../../../runtime/storage/sqlite/turn-snapshot.ts';
import { testEngine } from '../../support/test-database.ts';

const books: TableSpec = {
  table: 'books',
  key: { name: 'book_id', type: 'integer', generated: true },
  columns: [{ name: 'title', kind: 'string', unique: false, indexed: false, searchable: false }],
};

const toClose: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of toClose.splice(0).reverse()) await item.close();
});

/** A store on a database file, as a server opens it (the file named, so reads share a turn's snapshot). */
function storeOnFile(): { store: SqliteResourceStore; path: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'turn-snapshot-')), 'app.db');
  const store = new SqliteResourceStore(openDatabase(path), { file: path, search: { threads: 0 } });
  toClose.push(store);
  store.migrate([books]);
  return { store, path };
}

/** Another process's connection to the same file (the token command, an operator's sqlite3); it waits 50 ms at most for a lock. */
function otherConnection(path: string): DatabaseSync {
  const db = openDatabase(path, { busyTimeoutMs: 50 });
  toClose.push(db);
  return db;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Runs `read` as a request listener runs a request that has just arrived (requestListener() does this). */
const arrived = <T>(store: SqliteResourceStore, read: () => T): T => store.handleArrival(read, undefined, undefined);
const titles = (store: SqliteResourceStore) =>
  arrived(store, () => store.list(books, { where: {}, limit: 100, offset: 0 }).rows.map((row) => row.title));
const INSERT_DUNE =
  "INSERT INTO books (title, created_at, updated_at) VALUES ('Dune', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')";

// SQLite's alone: the postgres project runs this folder again.
describe.runIf(testEngine() === 'sqlite')('reads of the requests of one event-loop turn (SQLite file)', () => {
  it('share one snapshot: a commit by another process is seen from the next turn on', async () => {
    const { store, path } = storeOnFile();
    const other = otherConnection(path);
    expect(arrived(store, () => store.find(books, 1))).toBeUndefined();
    other.prepare(INSERT_DUNE).run();
    // The same turn: the page, its count and a read by key still agree with the first read.
    expect(arrived(store, () => store.find(books, 1))).toBeUndefined();
    expect(arrived(store, () => store.list(books, { where: {}, limit: 10, offset: 0 }))).toEqual({
      rows: [],
      total: 0,
    });
    await nextTurn();
    expect(arrived(store, () => store.find(books, 1))).toMatchObject({ book_id: 1, title: 'Dune' });
    expect(arrived(store, () => store.countWhere(books, 'title', 'Dune'))).toBe(1);
  });

  it('are made alone anywhere else (a timer, after a promise): a commit by another process is seen at once', () => {
    const { store, path } = storeOnFile();
    const other = otherConnection(path);
    expect(arrived(store, () => store.find(books, 1))).toBeUndefined();
    other.prepare(INSERT_DUNE).run();
    expect(store.find(books, 1)).toMatchObject({ title: 'Dune' });
    expect(store.list(books, { where: {}, limit: 10, offset: 0 }).total).toBe(1);
  });

  it("see the store's own write as soon as it is committed, even within the turn that read before it", async () => {
    const { store } = storeOnFile();
    // Queued first, so its group commits (at the turn's end) before the snapshot below would end.
    const written = store.transaction((tx) => tx.insert(books, { title: 'Dune' }));
    expect(titles(store)).toEqual([]);
    await written;
    // Resumed right after the COMMIT, before any later callback of the turn.
    expect(titles(store)).toEqual(['Dune']);
    expect(arrived(store, () => store.find(books, 1))).toMatchObject({ title: 'Dune' });
  });

  it('read inside a transaction what it wrote, on its own connection', async () => {
    const { store } = storeOnFile();
    expect(titles(store)).toEqual([]);
    const seen = await store.transaction((tx) =>
      arrived(store, () => {
        tx.insert(books, { title: 'Dune' });
        return [(tx.find(books, 1) as Row | undefined)?.title, tx.countWhere(books, 'title', 'Dune')];
      }),
    );
    expect(seen).toEqual(['Dune', 1]);
  });

  it('hold nothing past the turn: another connection can then checkpoint the whole log and empty it', async () => {
    const { store, path } = storeOnFile();
    await store.transaction((tx) => tx.insert(books, { title: 'Dune' }));
    expect(arrived(store, () => store.find(books, 1))).toBeDefined();
    const other = otherConnection(path);
    // While the snapshot is open, the log cannot be emptied: a reader still uses it.
    expect(other.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get()).toMatchObject({ busy: 1 });
    await nextTurn();
    expect(other.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get()).toMatchObject({ busy: 0 });
  });

  it('closes cleanly with a snapshot open, and the turn then ends without an error', async () => {
    const { store } = storeOnFile();
    expect(arrived(store, () => store.find(books, 1))).toBeUndefined();
    await store.close();
    await nextTurn();
    expect(() => arrived(store, () => store.find(books, 1))).toThrow();
  });

  it("the snapshot's connection can never write: a statement that would is refused", () => {
    const { path } = storeOnFile();
    const snapshot = new TurnSnapshot(path);
    toClose.push(snapshot);
    expect(() => snapshot.connection.exec(INSERT_DUNE)).toThrow(/readonly/);
    expect(otherConnection(path).prepare('SELECT count(*) AS n FROM books').get()).toEqual({ n: 0 });
  });
});
