export type {
  ColumnKind,
  ColumnSpec,
  ListQuery,
  ListResult,
  RangeCondition,
  ContainsCondition,
  RangeOperator,
  Row,
  SortKey,
  TableSpec,
} from './table-spec.ts';
export type { ResourceStore, StoreReader, StoreTransaction } from './resource-store.ts';
export { conditionSql, type ConditionSql, type RowCondition } from './row-condition.ts';
export { parseDatabaseUrl, describeDatabaseUrl, DEFAULT_DATABASE_URL, type DatabaseLocation } from './database-url.ts';
export { openDatabase, inTransaction, DatabasePathError, IN_MEMORY } from './sqlite/open-database.ts';
export { SqliteResourceStore, toFtsQuery, type SqliteStoreOptions } from './sqlite/sqlite-store.ts';
export { DEFAULT_SEARCH_THREADS, DEFAULT_SEARCH_TIMEOUT_MS, type SearchOptions } from './search-budget.ts';
export { isoNow } from './time.ts';
export { allOf, andThen, runFlow, wait, type Flow, type Maybe } from './maybe.ts';
export { searchWords } from './search-words.ts';
export { quoteName } from './quote-name.ts';
export { fromSqlValues, selectedColumns } from './row-values.ts';
export { PostgresResourceStore, toTsQuery } from './postgres/postgres-store.ts';
export {
  connectPostgres,
  DatabaseUnavailableError,
  DEFAULT_POOL_SIZE,
  type PostgresPoolOptions,
} from './postgres/connect.ts';
export type { MigrationSource } from './migrations/migration.ts';
export { MigrationFailedError } from './migrations/statements.ts';
export { SchemaMismatchError } from './migrations/schema-check.ts';
