export type { ColumnKind, ColumnSpec, ListQuery, ListResult, Row, TableSpec } from './table-spec.ts';
export type { ResourceStore, StoreReader, StoreTransaction } from './resource-store.ts';
export { parseDatabaseUrl, describeDatabaseUrl, DEFAULT_DATABASE_URL, type DatabaseLocation } from './database-url.ts';
export { openDatabase, inTransaction, DatabasePathError, IN_MEMORY } from './sqlite/open-database.ts';
export { SqliteResourceStore, toFtsQuery } from './sqlite/sqlite-store.ts';
export { openStore, type OpenedStore } from './open-store.ts';
export { isoNow } from './time.ts';
