import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../runtime/errors/index.ts';
import {
  IN_MEMORY,
  openDatabase,
  SqliteResourceStore,
  type ResourceStore,
  type TableSpec,
} from '../../../runtime/storage/index.ts';
import { connectPostgres } from '../../../runtime/storage/postgres/connect.ts';
import { PostgresResourceStore } from '../../../runtime/storage/postgres/postgres-store.ts';
import { newTestDatabase, testEngine } from '../../support/test-database.ts';

const notes: TableSpec = {
  table: 'notes',
  key: { name: 'note_id', type: 'integer', generated: true },
  columns: [{ name: 'body', kind: 'string', unique: false, indexed: false, searchable: true }],
};

/** Every row holds every word of WORDS, so each prefix term of the search matches all of them. */
const WORDS = 'wa wb wc wd we wf wg wh';
const ROWS = 20_000;
const bodyOf = (index: number) => `${WORDS} note ${index}${index % 3 === 0 ? ' wa' : ''}`;

const opened: ResourceStore[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
});

/** A SQLite file with ROWS notes, written once through a plain store. */
const seededFile = (() => {
  let path: string | undefined;
  return () => {
    if (path !== undefined) return path;
    path = join(mkdtempSync(join(tmpdir(), 'search-budget-')), 'app.db');
    const writer = new SqliteResourceStore(openDatabase(path));
    writer.migrate([notes]);
    writer.transaction((tx) => {
      for (let index = 0; index < ROWS; index += 1) tx.insert(notes, { body: bodyOf(index) });
    });
    writer.close();
    return path;
  };
})();

function sqliteStore(
  file: string,
  search: { timeoutMs?: number; threads?: number },
  threaded = true,
): SqliteResourceStore {
  const store = new SqliteResourceStore(openDatabase(file), threaded ? { file, search } : { search });
  store.migrate([notes]);
  opened.push(store);
  return store;
}

async function refusal(pending: () => unknown): Promise<ApiError> {
  try {
    await pending();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('the search answered within its budget');
}

describe.runIf(testEngine() === 'sqlite')('the SQLite search budget', () => {
  it('runs a search of a database file in a thread: the event loop serves timers while it runs', async () => {
    const store = sqliteStore(seededFile(), {});
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    const pending = store.search(notes, WORDS, 50, 0);
    // Searched here, the answer would already be a value and no timer could have fired.
    expect(pending).toBeInstanceOf(Promise);
    const answer = await pending;
    clearInterval(timer);
    expect(answer.total).toBe(ROWS);
    expect(ticks).toBeGreaterThan(0);
  });

  it('answers exactly what a search on the event loop answers: the same keys in the same order, the same total', async () => {
    const file = seededFile();
    const threaded = sqliteStore(file, {});
    const inline = sqliteStore(file, {}, false);
    for (const [text, limit, offset] of [
      [WORDS, 50, 0],
      ['wa', 20, 100],
      ['note 1', 50, 0],
      ['nothing', 10, 0],
    ] as const) {
      const here = inline.search(notes, text, limit, offset);
      expect(here).not.toBeInstanceOf(Promise);
      expect(await threaded.search(notes, text, limit, offset)).toEqual(here);
    }
  });

  it.each([
    ['in a search thread', true],
    ['on the event loop (SEARCH_THREADS=0, or :memory:)', false],
  ])('stops a search past its budget %s: 503 search_timeout naming q', async (_where, threaded) => {
    const store = sqliteStore(seededFile(), { timeoutMs: 5, threads: threaded ? 1 : 0 }, threaded);
    const error = await refusal(() => store.search(notes, WORDS, 50, 0));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'search_timeout', field: 'q' });
    // The thread (or connection) is still there for the next search with a budget it can keep.
    const roomy = sqliteStore(seededFile(), { timeoutMs: 60_000, threads: threaded ? 1 : 0 }, threaded);
    expect((await roomy.search(notes, 'note 7', 5, 0)).total).toBeGreaterThan(0);
  });

  it('keeps an in-memory database on the event loop: no other connection can open it', async () => {
    const store = new SqliteResourceStore(openDatabase(IN_MEMORY), { search: { threads: 4 } });
    opened.push(store);
    store.migrate([notes]);
    await store.transaction((tx) => tx.insert(notes, { body: 'plums' }));
    expect(store.search(notes, 'plu', 10, 0)).toEqual({ keys: [1], total: 1 });
  });
});

describe.runIf(testEngine() === 'postgres')('the PostgreSQL search budget', () => {
  it('cancels a search past its budget (statement_timeout): 503 search_timeout naming q; the pool serves on', async () => {
    const databaseUrl = await newTestDatabase();
    const pool = await connectPostgres(databaseUrl, { size: 2 });
    const store = new PostgresResourceStore(pool, { search: { timeoutMs: 1 } });
    opened.push(store);
    await store.migrate([notes]);
    await pool.query(
      `INSERT INTO notes (body, created_at, updated_at) SELECT $1 || ' note ' || i || repeat(' filler', 200), 'now', 'now' FROM generate_series(1, $2) AS i`,
      [WORDS, ROWS],
    );
    const error = await refusal(() => store.search(notes, WORDS, 50, 0));
    expect(error).toMatchObject({ status: 503, code: 'search_timeout', field: 'q' });
    // SET LOCAL ended with the search's transaction: the same pooled connections run long statements.
    for (let round = 0; round < 3; round += 1)
      expect((await pool.query('SELECT count(*)::int AS n, pg_sleep(0.01) FROM notes')).rows[0].n).toBe(ROWS);
    const roomy = new PostgresResourceStore(pool, { search: { timeoutMs: 60_000 } });
    expect((await roomy.search(notes, WORDS, 50, 0)).total).toBe(ROWS);
  });
});

describe.runIf(testEngine() === 'sqlite' && process.platform === 'linux')('the SQLite search thread on Linux', () => {
  it('runs at nice 5, below the event loop, so a search takes the CPU the requests leave', async () => {
    const store = sqliteStore(seededFile(), {});
    await store.search(notes, 'note', 1, 0);
    const niceOf = (task: string) =>
      Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const main = String(process.pid);
    const others = readdirSync('/proc/self/task').filter((task) => task !== main);
    expect(niceOf(main)).not.toBe(5);
    expect(others.map(niceOf)).toContain(5);
  });
});
