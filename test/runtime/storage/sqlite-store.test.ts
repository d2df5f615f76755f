import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, SqliteResourceStore, toFtsQuery, type TableSpec } from '../../../runtime/storage/index.ts';

const books: TableSpec = {
  table: 'books',
  key: { name: 'book_id', type: 'integer', generated: true },
  columns: [
    { name: 'title', kind: 'string', unique: true, indexed: false, searchable: true },
    { name: 'in_print', kind: 'boolean', unique: false, indexed: true, searchable: false },
  ],
};

function freshStore(path = join(mkdtempSync(join(tmpdir(), 'store-')), 'app.db')) {
  const store = new SqliteResourceStore(openDatabase(path));
  store.migrate([books]);
  return { store, path };
}

describe('SqliteResourceStore', () => {
  it('inserts with a server-assigned key and timestamps, and reads booleans back as booleans', () => {
    const { store } = freshStore();
    const row = store.transaction((tx) => tx.insert(books, { title: 'Dune', in_print: true }));
    expect(row).toMatchObject({ book_id: 1, title: 'Dune', in_print: true });
    expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('reads a row the same by key and in a list: NULL left out, booleans false and true, timestamps kept', () => {
    const { store } = freshStore();
    store.transaction((tx) => {
      tx.insert(books, { title: 'no print state' });
      tx.insert(books, { title: 'out of print', in_print: false });
    });
    const found = [store.find(books, 1), store.find(books, 2)];
    expect(found[0]).toEqual({ book_id: 1, title: 'no print state', created_at: expect.any(String), updated_at: expect.any(String) });
    expect(found[1]).toMatchObject({ book_id: 2, title: 'out of print', in_print: false });
    expect(Object.keys(found[1]!)).toEqual(['book_id', 'title', 'in_print', 'created_at', 'updated_at']);
    expect(store.list(books, { where: {}, limit: 10, offset: 0 }).rows).toEqual(found);
    expect(store.find(books, 3)).toBeUndefined();
  });

  it('never reuses a key after a delete', () => {
    const { store } = freshStore();
    store.transaction((tx) => tx.insert(books, { title: 'a' }));
    store.transaction((tx) => tx.remove(books, 1));
    expect(store.transaction((tx) => tx.insert(books, { title: 'b' })).book_id).toBe(2);
  });

  it('rolls the whole transaction back when the work throws', () => {
    const { store } = freshStore();
    expect(() =>
      store.transaction((tx) => {
        tx.insert(books, { title: 'kept?' });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.list(books, { where: {}, limit: 10, offset: 0 }).total).toBe(0);
  });

  it('filters and pages, counting every match', () => {
    const { store } = freshStore();
    store.transaction((tx) => {
      for (let i = 0; i < 5; i++) tx.insert(books, { title: `t${i}`, in_print: i % 2 === 0 });
    });
    const page = store.list(books, { where: { in_print: true }, limit: 2, offset: 1 });
    expect(page.total).toBe(3);
    expect(page.rows.map((row) => row.title)).toEqual(['t2', 't4']);
  });

  it('keeps the search index in step with writes', () => {
    const { store } = freshStore();
    store.transaction((tx) => tx.insert(books, { title: 'The Left Hand of Darkness' }));
    expect(store.search(books, 'darkn', 10, 0)).toEqual({ keys: [1], total: 1 });
    store.transaction((tx) => tx.update(books, 1, { title: 'Solaris' }));
    expect(store.search(books, 'darkness', 10, 0).total).toBe(0);
    store.transaction((tx) => tx.remove(books, 1));
    expect(store.search(books, 'solaris', 10, 0).total).toBe(0);
  });

  it('adds a newly declared column without losing existing rows', () => {
    const { store, path } = freshStore();
    store.transaction((tx) => tx.insert(books, { title: 'old' }));
    store.close();
    const extended: TableSpec = { ...books, columns: [...books.columns, { name: 'pages', kind: 'integer', unique: false, indexed: false, searchable: false }] };
    const reopened = new SqliteResourceStore(openDatabase(path));
    reopened.migrate([extended]);
    expect(reopened.find(extended, 1)).toMatchObject({ book_id: 1, title: 'old' });
    expect(reopened.transaction((tx) => tx.update(extended, 1, { pages: 300 }))).toMatchObject({ title: 'old', pages: 300 });
  });

  it.each([
    ['plain words become prefix terms', 'left hand', '"left"* "hand"*'],
    ['FTS syntax is neutralised', 'a" OR b*', '"a"* "OR"* "b"*'],
    ['nothing searchable', '"*"', ''],
  ])('toFtsQuery: %s', (_name, given, want) => {
    expect(toFtsQuery(given)).toBe(want);
  });
});

describe('string identifiers', () => {
  it('are assigned by the server, random and unguessable, and found again', () => {
    const notes: TableSpec = { table: 'notes', key: { name: 'note_id', type: 'string', generated: true }, columns: [{ name: 'text', kind: 'string', unique: false, indexed: false, searchable: true }] };
    const store = new SqliteResourceStore(openDatabase(':memory:'));
    store.migrate([notes]);
    const first = store.transaction((tx) => tx.insert(notes, { text: 'one' }));
    const second = store.transaction((tx) => tx.insert(notes, { text: 'two' }));
    expect(first.note_id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(second.note_id).not.toBe(first.note_id);
    expect(store.find(notes, first.note_id)).toMatchObject({ text: 'one' });
    expect(store.search(notes, 'two', 10, 0).keys).toEqual([second.note_id]);
  });
});
