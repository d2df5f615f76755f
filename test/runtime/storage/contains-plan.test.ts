import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { ListQuery, TableSpec } from '../../../runtime/storage/index.ts';
import { connectPostgres } from '../../../runtime/storage/postgres/connect.ts';
import { PostgresResourceStore } from '../../../runtime/storage/postgres/postgres-store.ts';
import { recording } from '../../support/recording-sql.ts';
import { newTestDatabase, testEngine } from '../../support/test-database.ts';

const ROWS = 100_000;

/** An array column filtered by one item (`?vaccinations.contains=rabies`): indexed, so GIN on PostgreSQL. */
const pets: TableSpec = {
  table: 'pets',
  key: { name: 'pet_id', type: 'integer', generated: true },
  columns: [
    { name: 'pet_name', kind: 'string', unique: false, indexed: false, searchable: false },
    { name: 'vaccinations', kind: 'json', unique: false, indexed: true, searchable: false },
  ],
};

const page: ListQuery = { where: {}, contains: [{ column: 'vaccinations', value: 'rabies' }], limit: 20, offset: 0 };

// SQLite has no index that serves json_each (docs/lists.md, Array contains): nothing to read there.
describe.runIf(testEngine() === 'postgres')(
  `a contains filter over ${ROWS.toLocaleString('en')} rows reads the GIN index (postgres)`,
  () => {
    let pool: pg.Pool | undefined;
    let store: PostgresResourceStore | undefined;
    afterAll(async () => store?.close());

    it('the page statement the store ran is planned as a bitmap scan of the column GIN index, no scan of the table or of the key index', async () => {
      const seen: string[] = [];
      pool = await connectPostgres(await newTestDatabase(), { size: 2 });
      store = new PostgresResourceStore(recording(pool, 'query', seen));
      await store.migrate([pets]);
      // One row in a thousand holds rabies; every row holds distemper.
      await pool.query(`INSERT INTO pets (pet_name, vaccinations, created_at, updated_at)
        SELECT 'pet ' || i, CASE WHEN i % 1000 = 0 THEN '["distemper", "rabies"]' ELSE '["distemper"]' END::jsonb,
          '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'
        FROM generate_series(1, ${ROWS}) AS i`);
      await pool.query('ANALYZE pets');
      seen.length = 0;

      const { rows, total } = await store.list(pets, page);
      expect(total).toBe(ROWS / 1000);
      expect(rows).toHaveLength(20);
      for (const row of rows) expect(row.vaccinations).toEqual(['distemper', 'rabies']);

      const statement = seen.find((sql) => sql.includes('@>') && sql.includes('LIMIT'));
      expect(statement).toBeDefined();
      const { rows: plan } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement!}`, [
        JSON.stringify(['rabies']),
        20,
        0,
      ]);
      const text = plan.map((line) => line['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Bitmap Index Scan on pets__vaccinations/);
      expect(text).not.toMatch(/Seq Scan|pets_pkey/);
    }, 240_000);
  },
);
