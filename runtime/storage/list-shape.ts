import type { ListQuery, RangeOperator } from './table-spec.ts';

/** The SQL comparison of each range operator (the same on both engines). */
export const RANGE_SQL: Readonly<Record<RangeOperator, string>> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };

/**
 * What a list's statement depends on besides its equality columns: the range conditions (column and
 * operator, in order), the sort keys and the array columns that must contain an item. '' for a list
 * with none of them, so the plain list's statement is found as before, without building anything.
 */
export function rangeAndOrderKey(query: ListQuery): string {
  const { ranges, order, contains } = query;
  if (
    (ranges === undefined || ranges.length === 0) &&
    (order === undefined || order.length === 0) &&
    (contains === undefined || contains.length === 0)
  )
    return '';
  const rangePart = (ranges ?? []).map((range) => `${range.column} ${range.operator}`).join(',');
  const orderPart = (order ?? []).map((key) => `${key.descending ? '-' : ''}${key.column}`).join(',');
  const containsPart = (contains ?? []).map((condition) => condition.column).join(',');
  return `|${rangePart}|${orderPart}|${containsPart}`;
}

/** Whether the key, the list's tie-breaker, sorts descending: in the direction of the last sort key. */
export function keyDescending(query: Pick<ListQuery, 'order'>): boolean {
  return query.order?.at(-1)?.descending ?? false;
}

/** The name of a sortable column's `(column, key)` index, on both engines (PostgreSQL cuts names at 63 bytes). */
export function sortIndexName(table: string, column: string): string {
  return `${table}__${column}__sorted`.slice(0, 63);
}
