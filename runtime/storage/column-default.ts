import type { ColumnSpec } from './table-spec.ts';

/**
 * The ` DEFAULT <literal>` clause a column is added with (SQLite and PostgreSQL alike), or '' when
 * the field has no default. Adding a column with a constant default gives every existing row that
 * value (neither engine rewrites the rows to do so), so rows stored before a required field existed
 * are read with it. Booleans are written the way each engine stores them.
 */
export function defaultClause(column: ColumnSpec, booleans: { readonly true: string; readonly false: string }): string {
  const value = column.default;
  if (value === undefined) return '';
  if (typeof value === 'boolean') return ` DEFAULT ${value ? booleans.true : booleans.false}`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`the default of column ${column.name} is not a finite number`);
    return ` DEFAULT ${String(value)}`;
  }
  return ` DEFAULT '${value.replaceAll("'", "''")}'`;
}
