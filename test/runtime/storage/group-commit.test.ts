import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, SqliteResourceStore, type TableSpec } from '../../../runtime/storage/index.ts';
import { GroupCommit } from '../../../runtime/storage/sqlite/group-commit.ts';
import { testEngine } from '../../support/test-database.ts';

const books: TableSpec = {
  table: 'books',
  key: { name: 'book_id', type: 'integer', generated: true },
  columns: [{ name: 'title', kind: 'string', unique: true, indexed: false, searchable: true }],
};

const toClose: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of toClose.splice(0)) await item.close();
});

function databaseFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'group-commit-')), 'app.db');
}

function open(path: string, busyTimeoutMs?: number): DatabaseSync {
  const db = openDatabase(path, busyTimeoutMs === undefined ? {} : { busyTimeoutMs });
  toClose.push(db);
  return db;
}

async function storeOn(path: string): Promise<SqliteResourceStore> {
  const store = new SqliteResourceStore(openDatabase(path));
  toClose.push(store);
  await store.migrate([books]);
  return store;
}

/** The titles another connection reads: what has been committed, nothing else. */
function committedTitles(path: string): string[] {
  return (open(path).prepare('SELECT title FROM books ORDER BY book_id').all() as { title: string }[]).map(
    (row) => row.title,
  );
}

// SQLite's alone: the postgres project runs this folder again, and PostgreSQL commits each transaction itself.
describe.runIf(testEngine() === 'sqlite')('group commit (SQLite)', () => {
  it('commits the transactions of one event-loop turn together, and hands over no result before the commit', async () => {
    const path = databaseFile();
    const store = await storeOn(path);
    const pending = ['Dune', 'Emma', 'Ubik'].map((title) => store.transaction((tx) => tx.insert(books, { title })));
    // Asked for, not yet run: nothing is visible to another connection, nothing is acknowledged.
    expect(committedTitles(path)).toEqual([]);
    const rows = await Promise.all(pending);
    expect(rows.map((row) => row.book_id)).toEqual([1, 2, 3]);
    expect(committedTitles(path)).toEqual(['Dune', 'Emma', 'Ubik']);
  });

  it('rolls back a transaction that throws alone: the others of its group commit, each with its own result or error', async () => {
    const path = databaseFile();
    const store = await storeOn(path);
    await store.transaction((tx) => tx.insert(books, { title: 'Dune' }));
    const outcomes = await Promise.allSettled([
      store.transaction((tx) => tx.insert(books, { title: 'Emma' })),
      // Two statements, the second refused (title is unique): the first must not survive either.
      store.transaction((tx) => {
        tx.insert(books, { title: 'Ubik' });
        return tx.insert(books, { title: 'Dune' });
      }),
      store.transaction((tx) => tx.insert(books, { title: 'Solaris' })),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(committedTitles(path)).toEqual(['Dune', 'Emma', 'Solaris']);
    expect((await store.search(books, 'ubik', 10, 0)).total).toBe(0);
  });

  it('runs a transaction asked for inside another as part of it', async () => {
    const path = databaseFile();
    const store = await storeOn(path);
    const row = await store.transaction(() => store.transaction((tx) => tx.insert(books, { title: 'Dune' })));
    expect(row).toMatchObject({ book_id: 1, title: 'Dune' });
    expect(committedTitles(path)).toEqual(['Dune']);
  });

  it('commits what is queued when the store closes', async () => {
    const path = databaseFile();
    const store = new SqliteResourceStore(openDatabase(path));
    await store.migrate([books]);
    const pending = store.transaction((tx) => tx.insert(books, { title: 'Dune' }));
    await store.close();
    await expect(pending).resolves.toMatchObject({ title: 'Dune' });
    expect(committedTitles(path)).toEqual(['Dune']);
  });

  it('fails every transaction of a group whose write lock another process keeps, and runs none of them', async () => {
    const path = databaseFile();
    const store = await storeOn(path);
    const db = open(path, 50);
    const group = new GroupCommit(db);
    const other = open(path);
    other.exec('BEGIN IMMEDIATE');
    let ran = 0;
    const outcomes = await Promise.allSettled([1, 2].map(() => group.run(() => (ran += 1))));
    other.exec('ROLLBACK');
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/locked|busy/i);
    expect(ran).toBe(0);
    expect(db.isTransaction).toBe(false);
    // The connection serves the next group as usual.
    await expect(store.transaction((tx) => tx.insert(books, { title: 'Dune' }))).resolves.toMatchObject({ book_id: 1 });
  });

  it('acknowledges nothing that ran before SQLite rolled the whole group back, and runs the rest in a group of their own', async () => {
    const path = databaseFile();
    await storeOn(path);
    const db = open(path);
    const group = new GroupCommit(db);
    const insert = db.prepare("INSERT INTO books (title, created_at, updated_at) VALUES (?, 'x', 'x')");
    const outcomes = await Promise.allSettled([
      group.run(() => insert.run('Dune')),
      // What an I/O error or a full disk does to a transaction: SQLite ends it, and the statement fails.
      group.run(() => {
        db.exec('ROLLBACK');
        throw new Error('disk I/O error');
      }),
      group.run(() => insert.run('Emma')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/disk I\/O error/);
    expect(committedTitles(path)).toEqual(['Emma']);
    expect(db.isTransaction).toBe(false);
  });

  it('refuses a group whose database file was removed under the server: 503 file_replaced, nothing acknowledged', async () => {
    const path = databaseFile();
    const store = await storeOn(path);
    rmSync(path);
    await expect(store.transaction((tx) => tx.insert(books, { title: 'Dune' }))).rejects.toMatchObject({
      status: 503,
      code: 'dependency_unavailable',
      fault: 'file_replaced',
    });
  });
});
