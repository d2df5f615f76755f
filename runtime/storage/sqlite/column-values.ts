import type { ColumnKind, Row, TableSpec } from '../table-spec.ts';
import { jsonValue } from '../row-values.ts';

type SqlValue = null | number | bigint | string;

/** A value as SQLite stores it: booleans as 0/1, everything else as is; undefined as NULL. */
export function toSqlValue(kind: ColumnKind, value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  if (kind === 'boolean') return value === true ? 1 : 0;
  if (kind === 'json') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') return value;
  throw new TypeError(`cannot store a ${typeof value} in a ${kind} column`);
}

/** A row as read from SQLite, back in the model's types; NULL columns are left out. */
export function fromSqlRow(table: TableSpec, raw: Record<string, unknown>): Row {
  const row: Row = {};
  const key = raw[table.key.name];
  row[table.key.name] = typeof key === 'bigint' ? Number(key) : key;
  for (const column of table.columns) {
    const value = raw[column.name];
    if (value === null || value === undefined) continue;
    row[column.name] =
      column.kind === 'boolean'
        ? value === 1 || value === 1n
        : column.kind === 'json'
          ? jsonValue(value)
          : typeof value === 'bigint'
            ? Number(value)
            : value;
  }
  row.created_at = raw.created_at;
  row.updated_at = raw.updated_at;
  return row;
}
