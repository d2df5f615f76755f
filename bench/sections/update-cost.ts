import { join } from 'node:path';
import { openDatabase, SqliteResourceStore, type ResourceStore } from '@convapi/runtime';
import { ordersModel } from '../../generated/models/orders.ts';
import type { BenchOptions } from '../lib/options.ts';
import { formatNumber, formatPercent } from '../lib/format.ts';
import { median, spreadAround } from '../lib/stats.ts';
import type { Log } from '../lib/section.ts';
import type { Table } from '../lib/table.ts';
import { cpuPerOperationInTurns } from '../lib/cpu-turns.ts';

/** Table sizes at which an update is measured: a small table, and one where a scan would show. */
const SIZES = [1_000, 20_000] as const;

/**
 * What updating one searchable row costs as its table grows: the CPU time of a store.update that
 * changes orders' searchable `item`, committed alone as a PATCH commits it, on orders as declared,
 * holding 1,000 and 20,000 rows. An update replaces the row's search entry; finding that entry must
 * not read the whole index, so the two figures should be close. Part of the write-cost section.
 */
export async function updateCost(dataDir: string, options: BenchOptions, log: Log): Promise<Table> {
  const table = ordersModel.table;
  const stores: { readonly rows: number; readonly store: ResourceStore }[] = [];
  for (const rows of SIZES) {
    const store = new SqliteResourceStore(openDatabase(join(dataDir, `updates-${rows}.db`)));
    await store.migrate([table]);
    // One transaction for the filling: the rows, not their commits, are what the table needs.
    await store.transaction((tx) => {
      for (let index = 0; index < rows; index += 1)
        tx.insert(table, { item: `item ${index} of ${rows}`, quantity: 1 + (index % 9) });
    });
    stores.push({ rows, store });
  }
  const rounds = options.plan.rounds;
  const perRound = options.plan.durationSeconds >= 2 ? 200 : 80;
  log(`update cost: tables of ${SIZES.join(' and ')} rows, ${rounds} rounds of ${perRound} committed updates each`);
  let written = 0;
  // Each update rewrites a different row, spread over the table, with new text to index.
  // Awaited one at a time: each update is committed alone, as a lone PATCH's is.
  const update =
    ({ rows, store }: (typeof stores)[number]) =>
    async () => {
      written += 1;
      const key = 1 + ((written * 7919) % rows);
      await store.transaction((tx) => tx.update(table, key, { item: `renamed ${written}` }));
      return 1;
    };
  let samples: number[][];
  try {
    samples = await cpuPerOperationInTurns(stores.map(update), { rounds, perRound, warmupCalls: 20 });
  } finally {
    for (const { store } of stores) await store.close();
  }
  const medians = samples.map((values) => median(values));
  return {
    title: 'Update cost: CPU per update of a searchable field, committed alone, by table size',
    columns: [
      { title: 'rows in orders' },
      { title: 'µs CPU/update', align: 'right' },
      { title: 'spread', align: 'right' },
    ],
    rows: stores.map(({ rows }, at) => [
      formatNumber(rows, 0),
      formatNumber(medians[at]!, 1),
      formatPercent(spreadAround(samples[at]!, medians[at]!)),
    ]),
    notes: [
      `store.update of orders' searchable item on orders as declared (a PATCH's transaction: the UPDATE, the row read back, its search entry replaced), ${rounds} rounds of ${perRound} updates per table size, the sizes in turn within a round; the median of the rounds.`,
      "The row's old search entry is found by its rowid (the integer key), so the cost should not grow with the table.",
    ],
  };
}
