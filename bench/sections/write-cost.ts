import { join } from 'node:path';
import { openDatabase, SqliteResourceStore, type ResourceStore, type TableSpec } from '@convapi/runtime';
import { ordersModel } from '../../generated/models/orders.ts';
import { openOrdersTable } from '../servers/orders-table.ts';
import type { BenchOptions } from '../lib/options.ts';
import { tempDir } from '../lib/temp.ts';
import { formatNumber, formatPercent } from '../lib/format.ts';
import { median, spreadAround } from '../lib/stats.ts';
import type { Log, SectionResult } from '../lib/section.ts';
import { updateCost } from './update-cost.ts';
import { cpuPerOperationInTurns } from '../lib/cpu-turns.ts';

/** One way of storing a created order: what it is, and how to store one. */
interface Writer {
  readonly title: string;
  readonly adds: string;
  /** Stores `rows` orders, committed (synchronous=FULL) before it returns or its promise settles. */
  readonly write: () => void | Promise<void>;
  /** How many orders one write stores. */
  readonly rows: number;
  readonly close: () => void | Promise<void>;
}

/**
 * What storing one created row costs, by what its collection declares: the CPU time of an insert
 * committed on its own, as every POST commits one, on the runtime's SQLite store (WAL,
 * synchronous=FULL), for the orders table as definitions/orders.ts declares it (two filterable
 * fields, one searchable), the same table without its search index, and without its filter indexes
 * either; beside the hand-written servers' INSERT … RETURNING on their own orders table
 * (servers/orders-table.ts, the same durability). Measured in this process, the writers taking turns
 * in each round, so a slow stretch of the machine lands on all of them alike. It separates, in a
 * POST's cost, what the declared indexes cost the database from what the request handling costs.
 */
export async function writeCost(options: BenchOptions, log: Log): Promise<SectionResult> {
  const dataDir = tempDir('write-cost');
  const declared = ordersModel.table;
  const withoutSearch: TableSpec = {
    ...declared,
    columns: declared.columns.map((column) => ({ ...column, searchable: false })),
  };
  const plain: TableSpec = {
    ...withoutSearch,
    columns: withoutSearch.columns.map((column) => ({ ...column, indexed: false })),
  };
  const writers: Writer[] = [handWritten(join(dataDir, 'b.db'))];
  for (const [name, table, title, adds] of [
    ['plain', plain, 'store: orders, no index', "created_at and updated_at, the runtime's row"],
    ['filters', withoutSearch, 'store: + filter indexes (item, quantity)', 'an index per filterable field'],
    [
      'declared',
      declared,
      'store: + search index (item): orders as declared',
      'the FTS5 entry, in the same transaction',
    ],
  ] as const) {
    writers.push(await storeWriter(join(dataDir, `${name}.db`), table, title, adds, 1));
  }
  writers.push(
    await storeWriter(
      join(dataDir, 'grouped.db'),
      declared,
      `store: orders as declared, ${GROUP} POSTs at once`,
      `their ${GROUP} transactions in one group commit`,
      GROUP,
    ),
  );
  const rounds = options.plan.rounds;
  const perRound = options.plan.durationSeconds >= 2 ? 400 : 150;
  log(`write cost: ${writers.length} writers, ${rounds} rounds of ${perRound} committed inserts each`);
  let samples: number[][];
  try {
    const tasks = writers.map((writer) => async () => {
      await writer.write();
      return writer.rows;
    });
    samples = await cpuPerOperationInTurns(tasks, { rounds, perRound, warmupCalls: 50 });
  } finally {
    for (const writer of writers) await writer.close();
  }
  const medians = samples.map((values) => median(values));
  const baseline = medians[0]!;
  const updates = await updateCost(dataDir, options, log);
  return {
    tables: [
      {
        title:
          'Write cost: CPU per created order (synchronous=FULL), by what the table declares and how many commit together',
        columns: [
          { title: 'writer' },
          { title: 'adds' },
          { title: 'µs CPU/row', align: 'right' },
          { title: 'spread', align: 'right' },
          { title: 'over b', align: 'right' },
        ],
        rows: writers.map((writer, at) => [
          writer.title,
          writer.adds,
          formatNumber(medians[at]!, 1),
          formatPercent(spreadAround(samples[at]!, medians[at]!)),
          at === 0 ? '' : signed(medians[at]! - baseline),
        ]),
        notes: [
          `In the bench process (CPU time of the process, user and system, the kernel's writes and fsync included), ${rounds} rounds of ${perRound} inserts per writer, each writer in turn within a round; the median of the rounds.`,
          "b: servers/orders-table.ts, the INSERT … RETURNING of the hand-written servers b, h and f (one table, no index), committed by SQLite itself (autocommit), as their POST does. store: the runtime's SqliteResourceStore, a transaction with one insert as a POST runs it (BEGIN IMMEDIATE, INSERT … RETURNING, the search entry when the table has one, COMMIT).",
          `The last writer asks for ${GROUP} such transactions at once, as ${GROUP} concurrent POSTs do: they run in one group commit (runtime/storage/sqlite/group-commit.ts), one BEGIN IMMEDIATE … COMMIT and one fsync for the ${GROUP}, each in a savepoint of its own. The writers above await each insert, so each is a group of one, committed alone as a lone POST's is.`,
          "over b: what each table costs per row beyond b's (− when cheaper); the request path's POST pays it on top of its request handling, so POST's c/b there is the two together.",
        ],
      },
      updates,
    ],
    targets: [],
  };
}

/** A difference with its sign: +12.3 or −4.5. */
function signed(value: number): string {
  return `${value < 0 ? '−' : '+'}${formatNumber(Math.abs(value), 1)}`;
}

function handWritten(path: string): Writer {
  const { insert } = openOrdersTable(path);
  return {
    title: 'b: hand-written INSERT (servers/orders-table.ts)',
    adds: 'one row in one table',
    rows: 1,
    write: () => void insert.get('x', 1, new Date().toISOString()),
    close: () => {},
  };
}

/**
 * The runtime's store inserting `rows` orders at once, as that many concurrent POSTs do: one
 * transaction each, all asked for in one event-loop turn, so they share one group commit. With one
 * row, each insert is a group of its own, committed alone as a lone POST's is.
 */
async function storeWriter(path: string, table: TableSpec, title: string, adds: string, rows: number): Promise<Writer> {
  const store: ResourceStore = new SqliteResourceStore(openDatabase(path));
  await store.migrate([table]);
  const insertOne = () => store.transaction((tx) => tx.insert(table, { item: 'x', quantity: 1 }));
  return {
    title,
    adds,
    rows,
    write: async () => void (await Promise.all(Array.from({ length: rows }, insertOne))),
    close: () => store.close(),
  };
}

/** Concurrent POSTs in the grouped writer: about the group size the bench's 10 connections produce. */
const GROUP = 8;
