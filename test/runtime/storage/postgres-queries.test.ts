import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectPostgres } from '../../../runtime/storage/postgres/connect.ts';
import {
  inPostgresTransaction,
  MAX_NAMED_STATEMENTS,
  query,
  queryArrays,
  queryFirstArray,
} from '../../../runtime/storage/postgres/queries.ts';
import { newTestDatabase, testEngine } from '../../support/test-database.ts';

const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

async function pool(size = 2): Promise<pg.Pool> {
  const opened = await connectPostgres(await newTestDatabase(), { size });
  pools.push(opened);
  return opened;
}

const SQUARES = 'SELECT n, n * n AS square, n::bigint * 10000000000 AS big FROM generate_series(1, $1::int) AS n';

// The statements the PostgreSQL store runs: pg's Query built without copying its config, one promise each.
describe.skipIf(testEngine() !== 'postgres')('prepared statements on PostgreSQL', () => {
  it('answer rows as arrays or as objects, bigints as numbers, on the pool and inside a transaction', async () => {
    const db = await pool();
    expect(await queryArrays(db, SQUARES, [3])).toEqual([
      [1, 1, 10_000_000_000],
      [2, 4, 20_000_000_000],
      [3, 9, 30_000_000_000],
    ]);
    expect((await query(db, SQUARES, [2])).rows).toEqual([
      { n: 1, square: 1, big: 10_000_000_000 },
      { n: 2, square: 4, big: 20_000_000_000 },
    ]);
    expect(await queryFirstArray(db, SQUARES, [5], (values) => values[1])).toBe(1);
    expect(await queryFirstArray(db, SQUARES, [0], (values) => values[1])).toBeUndefined();
    expect(await queryArrays(db, SQUARES, [2], (rows) => rows.length)).toBe(2);
    const inTransaction = await inPostgresTransaction(db, async (client) => [
      await queryArrays(client, SQUARES, [1]),
      (await query(client, SQUARES, [1])).rows,
    ]);
    expect(inTransaction).toEqual([[[1, 1, 10_000_000_000]], [{ n: 1, square: 1, big: 10_000_000_000 }]]);
  });

  it("parse each statement's columns by their own types, query after query on one connection", async () => {
    const db = await pool(1);
    const statements = [
      ['SELECT $1::bigint AS a, $1::text AS b', [[5, '5']]],
      ['SELECT $1::text AS a, $1::bigint AS b, $1::int > 3 AS c', [['5', 5, true]]],
      ['SELECT $1::int AS a', [[5]]],
    ] as const;
    for (let run = 0; run < 3; run += 1) {
      for (const [text, rows] of statements) expect(await queryArrays(db, text, [5])).toEqual(rows);
    }
    // A table whose column changes type between two statements of the same shape on the same connection.
    await query(db, 'CREATE TABLE shifting (v int)');
    await query(db, 'INSERT INTO shifting VALUES (7)');
    expect(await queryArrays(db, 'SELECT v FROM shifting', [])).toEqual([[7]]);
    await db.query('ALTER TABLE shifting ALTER v TYPE text');
    expect(await queryArrays(db, 'SELECT v FROM shifting WHERE true', [])).toEqual([['7']]);
  });

  it('are parsed once per connection: the same text runs as one named statement', async () => {
    const db = await pool(1);
    const text = 'SELECT $1::int + 1 AS next';
    for (let run = 0; run < 3; run += 1)
      expect((await query<{ next: number }>(db, text, [run])).rows[0]!.next).toBe(run + 1);
    const prepared = await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement = $1', [
      text,
    ]);
    expect(prepared.rows).toHaveLength(1);
    expect(prepared.rows[0]!.name).toMatch(/^s[0-9a-f]{20}$/);
  });

  it('name at most MAX_NAMED_STATEMENTS texts: past them a new text runs unnamed, answered the same', async () => {
    const db = await pool(1);
    // As many distinct texts as a client varying a list's filters could cause, and some more.
    const texts = Array.from(
      { length: MAX_NAMED_STATEMENTS + 40 },
      (_, index) => `SELECT $1::bigint * 10000000000 + ${index} AS v, $1::int AS n`,
    );
    for (const [index, text] of texts.entries()) {
      expect(await queryArrays(db, text, [2])).toEqual([[20_000_000_000 + index, 2]]);
      expect((await query(db, text, [1])).rows).toEqual([{ v: 10_000_000_000 + index, n: 1 }]);
    }
    const prepared = await db.query<{ count: string }>('SELECT count(*) FROM pg_prepared_statements');
    expect(Number(prepared.rows[0]!.count)).toBeLessThanOrEqual(MAX_NAMED_STATEMENTS);
    // A text named before the bound was reached is still a prepared statement.
    const first = await db.query('SELECT name FROM pg_prepared_statements WHERE statement = $1', [texts[0]]);
    expect(first.rows).toHaveLength(1);
  });

  it("reject with PostgreSQL's error and give the connection back to the pool", async () => {
    const db = await pool(1);
    for (let run = 0; run < 3; run += 1)
      await expect(query(db, 'SELECT 1 / $1::int', [0])).rejects.toMatchObject({ code: '22012' });
    // A mapping that throws rejects too, and leaks nothing either.
    await expect(
      queryArrays(db, SQUARES, [1], () => {
        throw new Error('mapped badly');
      }),
    ).rejects.toThrow('mapped badly');
    expect(await queryArrays(db, SQUARES, [1])).toHaveLength(1);
  });

  it("go through pg's documented query config where pg's Query is not built as expected", async () => {
    // A pg whose results keep their row mode under another name: a query built by the store's own
    // means would parse no row (this Result refuses to), so every row below proves the fallback ran.
    class OtherResult extends pg.Result {
      constructor(rowMode?: string, types?: unknown) {
        super(rowMode as never, types as never);
        delete (this as unknown as { rowAsArray?: boolean }).rowAsArray;
        (this as unknown as { parseRow: () => never }).parseRow = () => {
          throw new Error('parsed by a Result the store should not have used');
        };
      }
    }
    class OtherQuery extends pg.Query {
      constructor(...args: ConstructorParameters<typeof pg.Query>) {
        super(...args);
        const fields = this as unknown as { _rowMode?: string; _result: unknown; _results: unknown; types?: unknown };
        fields._result = fields._results = new OtherResult(fields._rowMode, fields.types);
      }
    }
    class OtherClient extends pg.Client {
      static Query = OtherQuery;
    }
    const url = await newTestDatabase();
    const db = new pg.Pool({ connectionString: url, max: 1, Client: OtherClient });
    pools.push(db);
    expect(await queryArrays(db, 'SELECT $1::int AS n, $2::text AS s', [7, 'x'])).toEqual([[7, 'x']]);
    expect((await query(db, 'SELECT $1::int AS n', [8])).rows).toEqual([{ n: 8 }]);
  });

  it('keep their connections open once opened: no idle timer armed when a connection comes back to the pool', async () => {
    const db = await pool(3);
    // Three at once open three connections (each arming its connect timeout once); each goes back to
    // the pool when its query ends.
    await Promise.all([1, 2, 3].map((n) => query(db, 'SELECT pg_sleep(0.05), $1::int AS n', [n])));
    expect(db.totalCount).toBe(3);
    // Timers are counted because nothing else shows them: a pool that arms an idle timer on each
    // query answers the same and keeps the same connections; the timer is the per-query cost that
    // pool min = max removes (BENCHMARKS.md), visible to a user only as throughput.
    // From here on, only pg-pool's own timers count: the process's other timers (other pools, vitest) come and go.
    const armedByPool: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((...args: Parameters<typeof setTimeout>) => {
      if (/pg-pool/.test(new Error().stack ?? '')) armedByPool.push(Number(args[1] ?? 0));
      return Reflect.apply(realSetTimeout, globalThis, args) as ReturnType<typeof setTimeout>;
    }) as typeof setTimeout);
    try {
      await Promise.all([1, 2, 3].map((n) => query(db, 'SELECT pg_sleep(0.02), $1::int AS n', [n])));
      for (let run = 0; run < 3; run += 1) await query(db, 'SELECT $1::int AS n', [run]);
    } finally {
      spy.mockRestore();
    }
    expect(db.totalCount).toBe(3);
    expect(db.idleCount).toBe(3);
    expect(armedByPool).toEqual([]);
  });
});
