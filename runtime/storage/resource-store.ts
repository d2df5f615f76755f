import type { Maybe } from './maybe.ts';
import type { RowCondition } from './row-condition.ts';
import type { ListQuery, ListResult, Row, TableSpec } from './table-spec.ts';

/**
 * Reads that need no transaction. Each answer is a value (SQLite, synchronous) or a promise of it
 * (PostgreSQL); callers wait only when it is a promise (see maybe.ts).
 */
export interface StoreReader {
  /** The row with this key; with `visible`, only when it also meets that condition (row access). */
  find(table: TableSpec, key: unknown, visible?: RowCondition): Maybe<Row | undefined>;
  list(table: TableSpec, query: ListQuery): Maybe<ListResult>;
  /** How many rows have `column` equal to `value` (reference checks before a delete). */
  countWhere(table: TableSpec, column: string, value: unknown): Maybe<number>;
  /** Keys of rows whose searchable columns match a full-text query (and `visible`, when given), best first. */
  search(
    table: TableSpec,
    text: string,
    limit: number,
    offset: number,
    visible?: RowCondition,
  ): Maybe<{ keys: unknown[]; total: number }>;
}

/**
 * Writes inside one transaction: all of them land, or none does. A row read with `find` inside a
 * transaction cannot be changed by another transaction until this one ends, so a read-check-write
 * (If-Match, a reference's target, a delete's referrers) is decided on what is still true at commit.
 */
export interface StoreTransaction extends StoreReader {
  /** Inserts a row; the store sets the key (when generated), created_at and updated_at. */
  insert(table: TableSpec, values: Row): Maybe<Row>;
  /** Replaces the given columns of an existing row and bumps updated_at. */
  update(table: TableSpec, key: unknown, values: Row): Maybe<Row>;
  remove(table: TableSpec, key: unknown): Maybe<void>;
  /** Rebuilds the full-text index of a table from its rows; returns how many rows were indexed. */
  reindex(table: TableSpec): Maybe<number>;
}

/**
 * The storage behind the resource handlers: SqliteResourceStore (node:sqlite, answers at once) and
 * PostgresResourceStore (pg, answers with promises). Every write goes through `transaction`.
 */
export interface ResourceStore extends StoreReader {
  /** Creates missing tables, columns and indexes; never drops or rewrites existing data. */
  migrate(tables: readonly TableSpec[]): Maybe<void>;
  /**
   * Runs `work` in one transaction; rolls back when it throws or rejects. SQLite holds the write lock
   * from the start and needs `work` to answer at once; PostgreSQL locks the rows the work reads and
   * runs the work again when the database reports a deadlock or a serialisation failure.
   */
  transaction<T>(work: (tx: StoreTransaction) => Maybe<T>): Maybe<T>;
  /**
   * Optional: inserts one row as a transaction of its own, for a write that reads nothing first. Where
   * a transaction costs round trips (PostgreSQL: BEGIN and COMMIT around the INSERT), one statement
   * does the same work atomically. Without it, callers run `transaction((tx) => tx.insert(...))`.
   */
  insertAlone?(table: TableSpec, values: Row): Maybe<Row>;
  /**
   * Optional: runs `handle(a, b)`, the synchronous part of handling a request that has just arrived,
   * so that the reads it makes may share one read snapshot with those of the other requests handed
   * over by the same wakeup of the event loop (SQLite on a file). A server passes the store to
   * requestListener(), which calls this for every request; reads made anywhere else (a timer, after
   * a promise) run alone, as without it.
   */
  handleArrival?<A, B, T>(handle: (a: A, b: B) => T, a: A, b: B): T;
  close(): Maybe<void>;
}
