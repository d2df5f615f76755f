import { afterAll, describe, expect, it } from 'vitest';
import {
  openDatabase,
  runFlow,
  SqliteResourceStore,
  toFtsQuery,
  wait,
  type ResourceStore,
  type TableSpec,
} from '../../../runtime/storage/index.ts';
import { connectPostgres } from '../../../runtime/storage/postgres/connect.ts';
import { PostgresResourceStore, toTsQuery } from '../../../runtime/storage/postgres/postgres-store.ts';
import { newTestDatabase, testEngine } from '../../support/test-database.ts';

const books: TableSpec = {
  table: 'books',
  key: { name: 'book_id', type: 'integer', generated: true },
  columns: [
    { name: 'title', kind: 'string', unique: true, indexed: false, searchable: true },
    { name: 'in_print', kind: 'boolean', unique: false, indexed: true, searchable: false },
  ],
};

const opened: ResourceStore[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
});

/** A store on a database of its own, on the suite's engine (project sqlite or postgres). */
async function openStore(databaseUrl: string): Promise<ResourceStore> {
  const store = databaseUrl.startsWith('sqlite:')
    ? new SqliteResourceStore(openDatabase(databaseUrl.slice('sqlite:'.length)))
    : new PostgresResourceStore(await connectPostgres(databaseUrl, { size: 4 }));
  opened.push(store);
  return store;
}

async function freshStore(tables: readonly TableSpec[] = [books]) {
  const databaseUrl = await newTestDatabase();
  const store = await openStore(databaseUrl);
  await store.migrate(tables);
  return { store, databaseUrl };
}

describe(`the resource store (${testEngine()})`, () => {
  it('inserts with a server-assigned key and timestamps, and reads booleans back as booleans', async () => {
    const { store } = await freshStore();
    const row = await store.transaction((tx) => tx.insert(books, { title: 'Dune', in_print: true }));
    expect(row).toMatchObject({ book_id: 1, title: 'Dune', in_print: true });
    expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('reads a row the same by key and in a list: NULL left out, booleans false and true, timestamps kept', async () => {
    const { store } = await freshStore();
    // Work written once for both engines: a Flow, synchronous on SQLite.
    await store.transaction((tx) =>
      runFlow(
        (function* () {
          yield* wait(tx.insert(books, { title: 'no print state' }));
          yield* wait(tx.insert(books, { title: 'out of print', in_print: false }));
        })(),
      ),
    );
    const found = [await store.find(books, 1), await store.find(books, 2)];
    expect(found[0]).toEqual({
      book_id: 1,
      title: 'no print state',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(found[1]).toMatchObject({ book_id: 2, title: 'out of print', in_print: false });
    expect(Object.keys(found[1]!)).toEqual(['book_id', 'title', 'in_print', 'created_at', 'updated_at']);
    expect((await store.list(books, { where: {}, limit: 10, offset: 0 })).rows).toEqual(found);
    expect(await store.find(books, 3)).toBeUndefined();
  });

  it('never reuses a key after a delete', async () => {
    const { store } = await freshStore();
    await store.transaction((tx) => tx.insert(books, { title: 'a' }));
    await store.transaction((tx) => tx.remove(books, 1));
    expect((await store.transaction((tx) => tx.insert(books, { title: 'b' }))).book_id).toBe(2);
  });

  it.runIf(testEngine() === 'sqlite')(
    'refuses work that answers with a promise: it would outlive its SQLite transaction',
    async () => {
      const { store } = await freshStore();
      await expect(store.transaction(async (tx) => tx.insert(books, { title: 'late' }))).rejects.toThrow(
        'must finish synchronously',
      );
      expect((await store.list(books, { where: {}, limit: 10, offset: 0 })).total).toBe(0);
    },
  );

  it('rolls the whole transaction back when the work throws', async () => {
    const { store } = await freshStore();
    const work = (tx: Parameters<Parameters<ResourceStore['transaction']>[0]>[0]) => {
      const inserted = tx.insert(books, { title: 'kept?' });
      const fail = () => {
        throw new Error('boom');
      };
      return inserted instanceof Promise ? inserted.then(fail) : fail();
    };
    await expect(async () => store.transaction(work)).rejects.toThrow('boom');
    expect((await store.list(books, { where: {}, limit: 10, offset: 0 })).total).toBe(0);
  });

  it('filters and pages, counting every match', async () => {
    const { store } = await freshStore();
    await store.transaction((tx) =>
      runFlow(
        (function* () {
          for (let i = 0; i < 5; i++) yield* wait(tx.insert(books, { title: `t${i}`, in_print: i % 2 === 0 }));
        })(),
      ),
    );
    const page = await store.list(books, { where: { in_print: true }, limit: 2, offset: 1 });
    expect(page.total).toBe(3);
    expect(page.rows.map((row) => row.title)).toEqual(['t2', 't4']);
    // Full pages, short last pages (counted from the page itself) and pages past the end alike.
    for (const [where, matching] of [
      [{}, 5],
      [{ in_print: true }, 3],
    ] as const) {
      for (let limit = 1; limit <= 6; limit += 1) {
        for (let offset = 0; offset <= 7; offset += 1) {
          const paged = await store.list(books, { where, limit, offset });
          expect({ limit, offset, total: paged.total, rows: paged.rows.length }).toEqual({
            limit,
            offset,
            total: matching,
            rows: Math.max(0, Math.min(limit, matching - offset)),
          });
        }
      }
    }
  });

  it('keeps the search index in step with writes', async () => {
    const { store } = await freshStore();
    await store.transaction((tx) => tx.insert(books, { title: 'The Left Hand of Darkness' }));
    expect(await store.search(books, 'darkn', 10, 0)).toEqual({ keys: [1], total: 1 });
    await store.transaction((tx) => tx.update(books, 1, { title: 'Solaris' }));
    expect((await store.search(books, 'darkness', 10, 0)).total).toBe(0);
    expect(await store.transaction((tx) => tx.reindex(books))).toBe(1);
    expect((await store.search(books, 'solaris', 10, 0)).total).toBe(1);
    await store.transaction((tx) => tx.remove(books, 1));
    expect((await store.search(books, 'solaris', 10, 0)).total).toBe(0);
  });

  it("replaces and removes the right search entry when integer keys are the caller's, in any order", async () => {
    const shelves: TableSpec = {
      table: 'shelves',
      key: { name: 'shelf_id', type: 'integer', generated: false },
      columns: [{ name: 'label', kind: 'string', unique: false, indexed: false, searchable: true }],
    };
    const { store } = await freshStore([shelves]);
    for (const [shelf_id, label] of [
      [907, 'poetry'],
      [12, 'history'],
      [3051, 'travel'],
    ] as const) {
      await store.transaction((tx) => tx.insert(shelves, { shelf_id, label }));
    }
    await store.transaction((tx) => tx.update(shelves, 12, { label: 'maps' }));
    await store.transaction((tx) => tx.remove(shelves, 907));
    expect(await store.search(shelves, 'history', 10, 0)).toEqual({ keys: [], total: 0 });
    expect(await store.search(shelves, 'maps', 10, 0)).toEqual({ keys: [12], total: 1 });
    expect(await store.search(shelves, 'poetry', 10, 0)).toEqual({ keys: [], total: 0 });
    expect(await store.search(shelves, 'travel', 10, 0)).toEqual({ keys: [3051], total: 1 });
  });

  it.runIf(testEngine() === 'sqlite')(
    'rebuilds a search index of the earlier layout (keys in a column of their own) and keeps it in step',
    async () => {
      const databaseUrl = await newTestDatabase();
      const path = databaseUrl.slice('sqlite:'.length);
      // The layout stores before this one made: the key an UNINDEXED column, entries with rowids of
      // their own, which here differ from the keys they name.
      const earlier = openDatabase(path);
      earlier.exec(
        `CREATE TABLE books (book_id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, title TEXT, in_print INTEGER)`,
      );
      earlier.exec(
        `INSERT INTO books (book_id, created_at, updated_at, title) VALUES (5, 'x', 'x', 'Dune'), (9, 'x', 'x', 'Emma')`,
      );
      earlier.exec(`CREATE VIRTUAL TABLE "books__search" USING fts5(key UNINDEXED, "title")`);
      earlier.exec(`INSERT INTO "books__search" (key, title) VALUES (5, 'Dune'), (9, 'Emma')`);
      earlier.close();
      const store = await openStore(databaseUrl);
      await store.migrate([books]);
      expect(await store.search(books, 'emma', 10, 0)).toEqual({ keys: [9], total: 1 });
      await store.transaction((tx) => tx.update(books, 9, { title: 'Persuasion' }));
      await store.transaction((tx) => tx.remove(books, 5));
      expect(await store.search(books, 'emma', 10, 0)).toEqual({ keys: [], total: 0 });
      expect(await store.search(books, 'dune', 10, 0)).toEqual({ keys: [], total: 0 });
      expect(await store.search(books, 'persuasion', 10, 0)).toEqual({ keys: [9], total: 1 });
    },
  );

  it('adds a newly declared column, and a newly searchable one, without losing existing rows', async () => {
    const { store, databaseUrl } = await freshStore();
    await store.transaction((tx) => tx.insert(books, { title: 'old' }));
    await store.close();
    opened.splice(opened.indexOf(store), 1);
    const extended: TableSpec = {
      ...books,
      columns: [
        ...books.columns,
        { name: 'blurb', kind: 'string', unique: false, indexed: false, searchable: true },
        { name: 'pages', kind: 'integer', unique: false, indexed: false, searchable: false },
      ],
    };
    const reopened = await openStore(databaseUrl);
    await reopened.migrate([extended]);
    expect(await reopened.find(extended, 1)).toMatchObject({ book_id: 1, title: 'old' });
    expect(
      await reopened.transaction((tx) => tx.update(extended, 1, { pages: 300, blurb: 'a saga of sand' })),
    ).toMatchObject({ title: 'old', pages: 300 });
    expect((await reopened.search(extended, 'sand', 10, 0)).keys).toEqual([1]);
    expect((await reopened.search(extended, 'old', 10, 0)).keys).toEqual([1]);
  });

  it('instances migrating at once each end with the same tables, nothing duplicated', async () => {
    const databaseUrl = await newTestDatabase();
    const stores = await Promise.all([1, 2, 3].map(() => openStore(databaseUrl)));
    await Promise.all(stores.map((store) => store.migrate([books])));
    await stores[0]!.transaction((tx) => tx.insert(books, { title: 'once' }));
    expect((await stores[2]!.list(books, { where: {}, limit: 10, offset: 0 })).total).toBe(1);
  });
});

describe('string identifiers', () => {
  it('are assigned by the server, random and unguessable, and found again', async () => {
    const notes: TableSpec = {
      table: 'notes',
      key: { name: 'note_id', type: 'string', generated: true },
      columns: [{ name: 'text', kind: 'string', unique: false, indexed: false, searchable: true }],
    };
    const { store } = await freshStore([notes]);
    const first = await store.transaction((tx) => tx.insert(notes, { text: 'one' }));
    const second = await store.transaction((tx) => tx.insert(notes, { text: 'two' }));
    expect(first.note_id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(second.note_id).not.toBe(first.note_id);
    expect(await store.find(notes, first.note_id)).toMatchObject({ text: 'one' });
    expect((await store.search(notes, 'two', 10, 0)).keys).toEqual([second.note_id]);
    await store.transaction((tx) => tx.update(notes, first.note_id, { text: 'three' }));
    await store.transaction((tx) => tx.remove(notes, second.note_id));
    expect(await store.search(notes, 'one', 10, 0)).toEqual({ keys: [], total: 0 });
    expect(await store.search(notes, 'two', 10, 0)).toEqual({ keys: [], total: 0 });
    expect(await store.search(notes, 'three', 10, 0)).toEqual({ keys: [first.note_id], total: 1 });
  });
});

describe('free text as a query that cannot be a syntax error', () => {
  it.each([
    ['plain words become prefix terms', 'left hand', '"left"* "hand"*', `'left':* & 'hand':*`],
    ['query syntax is neutralised', 'a" OR b* & !c', '"a"* "OR"* "b"* "c"*', `'a':* & 'or':* & 'b':* & 'c':*`],
    ['nothing searchable', '"*"', '', ''],
  ])('%s', (_name, given, fts5, tsquery) => {
    expect(toFtsQuery(given)).toBe(fts5);
    expect(toTsQuery(given)).toBe(tsquery);
  });
});
