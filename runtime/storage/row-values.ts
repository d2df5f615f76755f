import { randomBytes } from 'node:crypto';
import type { ColumnKind, Row, TableSpec } from './table-spec.ts';
import { isoNow } from './time.ts';

/** The columns of a table in the order selectedColumns() names them: key, columns, created_at, updated_at. */
export function selectedColumns(table: TableSpec): string[] {
  return [table.key.name, ...table.columns.map((column) => column.name), 'created_at', 'updated_at'];
}

/** The kind of a table's column by name, its key included; a name it does not know is a string. */
export function columnKind(table: TableSpec, name: string): ColumnKind {
  if (name === table.key.name) return table.key.type;
  return table.columns.find((column) => column.name === name)?.kind ?? 'string';
}

/** A json column's value as read: SQLite gives its JSON text, PostgreSQL (jsonb) the parsed value. */
export function jsonValue(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/**
 * A row read as an array (StatementSync.setReturnArrays, or pg's rowMode 'array') of selectedColumns(), back in the model's
 * types, as fromSqlRow makes it from an object. Reading arrays spares node:sqlite building an
 * object with a fresh name string per column for every row.
 */
export function fromSqlValues(table: TableSpec, values: readonly unknown[]): Row {
  const row: Row = {};
  const key = values[0];
  row[table.key.name] = typeof key === 'bigint' ? Number(key) : key;
  const { columns } = table;
  for (let index = 0; index < columns.length; index += 1) {
    const value = values[index + 1];
    if (value === null || value === undefined) continue;
    const column = columns[index]!;
    row[column.name] =
      column.kind === 'boolean'
        ? value === true || value === 1 || value === 1n
        : column.kind === 'json'
          ? jsonValue(value)
          : typeof value === 'bigint'
            ? Number(value)
            : value;
  }
  row.created_at = values[columns.length + 1];
  row.updated_at = values[columns.length + 2];
  return row;
}

/**
 * What both stores insert for `values`: the row with its timestamps (and a generated string key),
 * and the columns the INSERT names, in order; an integer key the database generates is left out.
 */
export function insertPlan(table: TableSpec, values: Row): { row: Row; columns: string[] } {
  const now = isoNow();
  const row: Row = { ...values, created_at: now, updated_at: now };
  if (table.key.generated && table.key.type === 'string') row[table.key.name] = randomBytes(12).toString('base64url');
  const columns = [
    ...(table.key.generated && table.key.type === 'integer' ? [] : [table.key.name]),
    ...table.columns.map((column) => column.name),
    'created_at',
    'updated_at',
  ];
  return { row, columns };
}
