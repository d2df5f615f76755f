import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  openDatabase,
  SqliteResourceStore,
  type ListQuery,
  type ResourceStore,
  type TableSpec,
} from '../../../runtime/storage/index.ts';
import { connectPostgres } from '../../../runtime/storage/postgres/connect.ts';
import { PostgresResourceStore } from '../../../runtime/storage/postgres/postgres-store.ts';
import { newTestDatabase, testEngine } from '../../support/test-database.ts';
import { recording } from '../../support/recording-sql.ts';

const ROWS = 100_000;

const visits: TableSpec = {
  table: 'visits',
  key: { name: 'visit_id', type: 'integer', generated: true },
  columns: [
    { name: 'scheduled_at', kind: 'time', unique: false, indexed: true, sortable: true, searchable: false },
    { name: 'fee', kind: 'number', unique: false, indexed: true, sortable: true, searchable: false },
    { name: 'reason', kind: 'string', unique: false, indexed: false, searchable: false },
  ],
};

/** A sorted, range-filtered page of 20: the shape the index must serve. */
const page: ListQuery = {
  where: {},
  ranges: [{ column: 'scheduled_at', operator: 'gte', value: '2026-06-01T00:00:00Z' }],
  order: [{ column: 'scheduled_at', descending: true }],
  limit: 20,
  offset: 0,
};

interface Engine {
  readonly store: ResourceStore;
  /** The plan of a statement the store ran, as text, one line per node. */
  plan(sql: string, values: readonly unknown[]): Promise<string>;
  close(): Promise<void>;
}

async function sqliteEngine(seen: string[]): Promise<Engine> {
  const url = await newTestDatabase();
  const db: DatabaseSync = openDatabase(url.slice('sqlite:'.length));
  const store = new SqliteResourceStore(recording(db, 'prepare', seen));
  store.migrate([visits]);
  db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
    INSERT INTO visits (scheduled_at, fee, reason, created_at, updated_at)
    SELECT strftime('%Y-%m-%dT%H:%M:%SZ', '2026-01-01', '+' || (i * 157) || ' seconds'), (i * 7919) % 500, 'checkup', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM n`);
  db.exec('ANALYZE');
  return {
    store,
    plan: async (sql, values) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(values as never[])) as { detail: string }[])
        .map((row) => row.detail)
        .join('\n'),
    close: async () => store.close(),
  };
}

async function postgresEngine(seen: string[]): Promise<Engine> {
  const pool: pg.Pool = await connectPostgres(await newTestDatabase(), { size: 2 });
  const store = new PostgresResourceStore(recording(pool, 'query', seen));
  await store.migrate([visits]);
  await pool.query(`INSERT INTO visits (scheduled_at, fee, reason, created_at, updated_at)
    SELECT to_char(timestamp '2026-01-01' + i * interval '157 seconds', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), (i * 7919) % 500, 'checkup', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'
    FROM generate_series(1, ${ROWS}) AS i`);
  await pool.query('ANALYZE visits');
  return {
    store,
    plan: async (sql, values) => {
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, values as unknown[]);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    },
    close: async () => store.close(),
  };
}

describe(`a sorted, range-filtered page of ${ROWS.toLocaleString('en')} rows reads an index (${testEngine()})`, () => {
  const seen: string[] = [];
  let engine: Engine | undefined;
  afterAll(async () => engine?.close());

  it('reads the (scheduled_at, key) index in order: no sort of the rows, no scan of the table', async () => {
    engine = testEngine() === 'postgres' ? await postgresEngine(seen) : await sqliteEngine(seen);
    seen.length = 0;
    const { rows, total } = await engine.store.list(visits, page);
    expect(rows).toHaveLength(20);
    expect(total).toBeGreaterThan(10_000);
    const times = rows.map((row) => row.scheduled_at as string);
    expect(times).toEqual([...times].sort().reverse());
    const statement = seen.find((sql) => sql.includes('ORDER BY') && sql.includes('scheduled_at'));
    expect(statement).toBeDefined();
    const plan = await engine.plan(statement!, ['2026-06-01T00:00:00Z', 20, 0]);
    if (testEngine() === 'postgres') {
      expect(plan).toMatch(/Index (Only )?Scan Backward using visits__scheduled_at__sorted/);
      expect(plan).not.toMatch(/Seq Scan|Sort/);
    } else {
      expect(plan).toMatch(/SEARCH visits USING (COVERING )?INDEX visits__scheduled_at__sorted \(scheduled_at>\?\)/);
      expect(plan).not.toMatch(/TEMP B-TREE|SCAN visits/);
    }
  }, 240_000);
});
