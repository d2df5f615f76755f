import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api as generatedApi } from '../../../generated/api.ts';
import { tablesOf } from '../../../runtime/app/create-api.ts';
import { openDatabase, SqliteResourceStore } from '../../../runtime/storage/index.ts';
import { connectPostgres } from '../../../runtime/storage/postgres/connect.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';

const ROWS = 20_000;
const WORDS = 'wa wb wc wd we wf wg wh';

/** ROWS orders that every search word matches, written straight into the server's database (the API would take minutes). */
async function seedOrders(databaseUrl: string): Promise<void> {
  if (databaseUrl.startsWith('sqlite:')) {
    const store = new SqliteResourceStore(openDatabase(databaseUrl.slice('sqlite:'.length)));
    const orders = tablesOf(generatedApi).find((table) => table.table === 'orders')!;
    store.transaction((tx) => {
      for (let index = 0; index < ROWS; index += 1) tx.insert(orders, { item: `${WORDS} ${index}`, quantity: 1 });
    });
    store.close();
    return;
  }
  const pool = await connectPostgres(databaseUrl, { size: 1 });
  try {
    await pool.query(
      `INSERT INTO orders (item, quantity, created_at, updated_at) SELECT $1 || ' ' || i, 1, 'now', 'now' FROM generate_series(0, $2 - 1) AS i`,
      [WORDS, ROWS],
    );
  } finally {
    await pool.end();
  }
}

/** A search has a time budget (SEARCH_TIMEOUT_MS); past it, the query is stopped. */
describe('a search past its time budget', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { SEARCH_TIMEOUT_MS: '1' } });
    await seedOrders(api.databaseUrl);
  });
  afterAll(async () => api.close());

  it('answers 503 search_timeout naming q, with the error body, and the server serves on', async () => {
    const response = await api.get(`/services/v1/search?category=orders&q=${encodeURIComponent(WORDS)}`);
    expect(response.status).toBe(503);
    expect(response.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(response.body.errors[0]).toMatchObject({ code: 'search_timeout', field: 'q' });
    expect(response.body.errors[0].message).toContain('1 ms');
    expect((await api.get('/v1/orders/1').expect(200)).body).toMatchObject({ order_id: 1, item: `${WORDS} 0` });
  });
});
