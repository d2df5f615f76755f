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
  const store: ResourceStore = url.startsWith('sqlite:')
    ? new SqliteResourceStore(openDatabase(url.slice('sqlite:'.length)))
    : new PostgresResourceStore(await connectPostgres(url, { size: 2 }));
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
  new Promise<Record<string, unknown>>((resolve) =>
    resolve(runFlow(createResource(context, api.catalog.collections[collection]!, 'v1', body))),
  );

describe(`createResource (${testEngine()})`, () => {
  it('a resource with nothing to check first is one insert, without a transaction around it where the store offers that', async () => {
    const { store, counts, context } = await countingStore();
    const row = await create(context, 'orders', { item: 'tea', quantity: 2 });
    expect(row).toMatchObject({ order_id: 1, item: 'tea', quantity: 2 });
    expect(await store.find(api.catalog.collections.orders!.table, 1)).toEqual(row);
    // PostgreSQL runs the INSERT alone (no BEGIN and COMMIT round trips); SQLite has no such path.
    // Counted at the store because nothing else shows it: the response and the row are the same
    // either way, and the two round trips saved show only as throughput (BENCHMARKS.md).
    expect(counts).toEqual(testEngine() === 'postgres' ? { transactions: 0, alone: 1 } : { transactions: 1, alone: 0 });
  });

  // What the check before the insert shows a client: the 409 names the value it found taken (the
  // unique index's own refusal, the fallback for two checks racing, cannot), and a missing target is a
  // 422 with nothing stored.
  it('a unique value or a reference is checked before the insert: 409 naming the value, 422 naming the target, nothing stored', async () => {
    const { store, context } = await countingStore();
    await create(context, 'users', { user_name: 'ada' });
    await expect(create(context, 'users', { user_name: 'ada' })).rejects.toMatchObject({
      status: 409,
      code: 'duplicate_value',
      field: 'user_name',
      message: 'another user already has user_name "ada"',
    });
    await expect(create(context, 'trades', { trade_name: 'x', order: 99 })).rejects.toMatchObject({
      status: 422,
      code: 'reference_not_found',
      field: 'order',
      message: 'order refers to order 99, which does not exist',
    });
    // A trade without its optional reference has nothing to check either.
    await create(context, 'trades', { trade_name: 'y' });
    const all = { where: {}, limit: 10, offset: 0 };
    expect((await store.list(api.catalog.collections.users!.table, all)).rows.map((row) => row.user_name)).toEqual([
      'ada',
    ]);
    expect((await store.list(api.catalog.collections.trades!.table, all)).rows.map((row) => row.trade_name)).toEqual([
      'y',
    ]);
  });

  it("the identifier and created_at are the server's: 400 read_only_field naming each, nothing stored", async () => {
    const { store, context } = await countingStore();
    await expect(
      create(context, 'orders', { item: 'tea', quantity: 2, order_id: 5, created_at: '2026-01-01T00:00:00Z' }),
    ).rejects.toMatchObject({
      status: 400,
      entries: [
        { code: 'read_only_field', field: 'order_id', resource: 'orders' },
        { code: 'read_only_field', field: 'created_at', resource: 'orders' },
      ],
    });
    const all = { where: {}, limit: 10, offset: 0 };
    expect((await store.list(api.catalog.collections.orders!.table, all)).rows).toEqual([]);
  });

  it('a version the collection does not have is a programming error that names both', async () => {
    const { context } = await countingStore();
    expect(() => runFlow(createResource(context, api.catalog.collections.orders!, 'v9', {}))).toThrow(
      new Error('orders has no version v9'),
    );
  });
});
