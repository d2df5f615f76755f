import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../../generated/api.ts';
import { tablesOf } from '../../../runtime/app/create-api.ts';
import { createResource } from '../../../runtime/resources/index.ts';
import { openDatabase, runFlow, SqliteResourceStore, type ResourceStore } from '../../../runtime/storage/index.ts';
import { connectPostgres } from '../../../runtime/storage/postgres/connect.ts';
import { PostgresResourceStore } from '../../../runtime/storage/postgres/postgres-store.ts';
import { newTestDatabase, testEngine } from '../../support/test-database.ts';

const opened: ResourceStore[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
});

/** The example API's store on the suite's engine, with every transaction and lone insert counted. */
async function countingStore() {
  const url = await newTestDatabase();
  const store: ResourceStore = url.startsWith('sqlite:') ? new SqliteResourceStore(openDatabase(url.slice('sqlite:'.length))) : new PostgresResourceStore(await connectPostgres(url, { size: 2 }));
  opened.push(store);
  await store.migrate(tablesOf(api));
  const counts = { transactions: 0, alone: 0 };
  const transaction = store.transaction.bind(store);
  store.transaction = (work) => {
    counts.transactions += 1;
    return transaction(work);
  };
  const insertAlone = store.insertAlone?.bind(store);
  if (insertAlone !== undefined) {
    store.insertAlone = (table, values) => {
      counts.alone += 1;
      return insertAlone(table, values);
    };
  }
  return { store, counts, context: { store, baseUrl: 'http://api.test', catalog: api.catalog } };
}

const create = (context: Awaited<ReturnType<typeof countingStore>>['context'], collection: string, body: unknown) =>
  // On SQLite a refusal is thrown at once: as a rejection here, alike on both engines.
  new Promise<Record<string, unknown>>((resolve) => resolve(runFlow(createResource(context, api.catalog.collections[collection]!, 'v1', body))));

describe(`createResource (${testEngine()})`, () => {
  it('a resource with nothing to check first is one insert, without a transaction around it where the store offers that', async () => {
    const { store, counts, context } = await countingStore();
    const row = await create(context, 'orders', { item: 'tea', quantity: 2 });
    expect(row).toMatchObject({ order_id: 1, item: 'tea', quantity: 2 });
    expect(await store.find(api.catalog.collections.orders!.table, 1)).toEqual(row);
    // PostgreSQL runs the INSERT alone (no BEGIN and COMMIT round trips); SQLite has no such path.
    expect(counts).toEqual(testEngine() === 'postgres' ? { transactions: 0, alone: 1 } : { transactions: 1, alone: 0 });
  });

  it('a unique value or a reference is checked in a transaction, as before: 409 and 422', async () => {
    const { counts, context } = await countingStore();
    await create(context, 'users', { user_name: 'ada' });
    await expect(create(context, 'users', { user_name: 'ada' })).rejects.toMatchObject({ status: 409 });
    await expect(create(context, 'trades', { trade_name: 'x', order: 99 })).rejects.toMatchObject({ status: 422 });
    // A trade without its optional reference has nothing to check either.
    await create(context, 'trades', { trade_name: 'y' });
    expect(counts.transactions).toBe(testEngine() === 'postgres' ? 3 : 4);
  });
});
