import type { ListQuery, ListResult, Row, TableSpec } from './table-spec.ts';

/** Reads that need no transaction. */
export interface StoreReader {
  find(table: TableSpec, key: unknown): Row | undefined;
  list(table: TableSpec, query: ListQuery): ListResult;
  /** How many rows have `column` equal to `value` (reference checks before a delete). */
  countWhere(table: TableSpec, column: string, value: unknown): number;
  /** Keys of rows whose searchable columns match a full-text query, best first. */
  search(table: TableSpec, text: string, limit: number, offset: number): { keys: unknown[]; total: number };
}

/** Writes inside one transaction: all of them land, or none does. */
export interface StoreTransaction extends StoreReader {
  /** Inserts a row; the store sets the key (when generated), created_at and updated_at. */
  insert(table: TableSpec, values: Row): Row;
  /** Replaces the given columns of an existing row and bumps updated_at. */
  update(table: TableSpec, key: unknown, values: Row): Row;
  remove(table: TableSpec, key: unknown): void;
  /** Rebuilds the full-text index of a table from its rows; returns how many rows were indexed. */
  reindex(table: TableSpec): number;
}

/**
 * The storage behind the resource handlers. The embedded SQLite store implements it; a PostgreSQL
 * store can implement the same interface. Every write goes through `transaction`.
 */
export interface ResourceStore extends StoreReader {
  /** Creates missing tables, columns and indexes; never drops or rewrites existing data. */
  migrate(tables: readonly TableSpec[]): void;
  /** Runs `work` in one transaction that holds the write lock from its start. */
  transaction<T>(work: (tx: StoreTransaction) => T): T;
  close(): void;
}
