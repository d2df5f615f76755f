import {
  andThen,
  type ListQuery,
  type ListResult,
  type Maybe,
  type ResourceStore,
  type Row,
  type TableSpec,
} from '../storage/index.ts';
import type { FieldModel } from './model.ts';

/**
 * The most bytes of stored values one page of a list carries (about the size of its body). A page
 * of `limit` rows whose values would pass it is cut short after the row that passes it (never
 * before its first row) and its `Link: rel="next"` continues from there, so one list call costs a
 * bounded amount of memory and bandwidth whatever the rows hold: 500 rows of 1 MB titles are served
 * as pages of about 8 MiB, not one of 500 MB.
 */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;

/**
 * Bytes a value adds to a page, about: a string's UTF-16 length (most text is one byte a unit), an
 * array or an object (a stored list or nested object, as PostgreSQL's jsonb hands it back) what its
 * members weigh, 16 for anything else.
 */
const weightOf = (value: unknown): number => {
  if (typeof value === 'string') return value.length + 8;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + weightOf(item), 16);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).reduce((sum, [name, member]) => sum + name.length + weightOf(member), 16);
  return 16;
};

/** Bytes a row adds to a page, as weightOf() counts its values. */
const rowWeight = (row: Row): number => {
  let spent = 0;
  for (const value of Object.values(row)) spent += weightOf(value);
  return spent;
};

/** How many of `rows`, from the first, fit in `budget` bytes of values; at least one. */
export function rowsWithinBudget(rows: readonly Row[], budget = MAX_PAGE_BYTES): number {
  let spent = 0;
  for (let index = 0; index < rows.length; index += 1) {
    spent += rowWeight(rows[index]!);
    if (spent > budget) return index + 1;
  }
  return rows.length;
}

/** What the server sets on every row besides the declared fields (key, created_at, updated_at), weighed generously. */
const SERVER_SET_WEIGHT = 3 * 64;

/**
 * The most bytes a row of these stored fields can add to a page by their declaration alone: every
 * string at its maxLength (each has one: declared, or the documented default), anything else as
 * weightOf() counts it.
 */
export function largestRowWeight(fields: readonly FieldModel[]): number {
  const largest = (field: FieldModel): number =>
    field.fields !== undefined
      ? field.fields.reduce((sum, nested) => sum + largest(nested), 0)
      : field.kind === 'string' && field.maxLength !== undefined
        ? field.maxLength + 8
        : 16;
  return fields.reduce((sum, field) => sum + largest(field), SERVER_SET_WEIGHT);
}

/**
 * One page of a list, read from the store in as many reads as its rows need: each asks for as many
 * rows as can still fit in `budget` by declaration (`largestRow` each), plus the one that may pass
 * it, and reading stops once the rows read pass it. A page of rows large by declaration (a 1 MB
 * report) never holds more than its budget and one row in memory, whatever its `limit`; a table of
 * short rows is read at once, as before. The total is the last read's.
 */
export function listWithinBudget(
  store: Pick<ResourceStore, 'list'>,
  table: TableSpec,
  query: ListQuery,
  largestRow: number,
  budget = MAX_PAGE_BYTES,
): Maybe<ListResult> {
  const rows: Row[] = [];
  let spent = 0;
  const fitting = () => Math.floor(Math.max(0, budget - spent) / largestRow) + 1;
  if (query.limit <= fitting()) return store.list(table, query);
  const readFrom = (offset: number): Maybe<ListResult> => {
    const wanted = Math.min(fitting(), query.limit - rows.length);
    return andThen(store.list(table, { ...query, limit: wanted, offset }), ({ rows: found, total }) => {
      for (const row of found) {
        rows.push(row);
        spent += rowWeight(row);
        if (spent > budget) return { rows, total };
      }
      if (found.length < wanted || rows.length >= query.limit) return { rows, total };
      return readFrom(offset + found.length);
    });
  };
  return readFrom(query.offset);
}
