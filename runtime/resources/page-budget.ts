import type { Row } from '../storage/index.ts';

/**
 * The most bytes of stored values one page of a list carries (about the size of its body). A page
 * of `limit` rows whose values would pass it is cut short after the row that passes it (never
 * before its first row) and its `Link: rel="next"` continues from there, so one list call costs a
 * bounded amount of memory and bandwidth whatever the rows hold: 500 rows of 1 MB titles are served
 * as pages of about 8 MiB, not one of 500 MB.
 */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;

/** Bytes a value adds to a page, about: a string's UTF-16 length (most text is one byte a unit), 16 for anything else. */
const weightOf = (value: unknown): number => (typeof value === 'string' ? value.length + 8 : 16);

/** How many of `rows`, from the first, fit in `budget` bytes of values; at least one. */
export function rowsWithinBudget(rows: readonly Row[], budget = MAX_PAGE_BYTES): number {
  let spent = 0;
  for (let index = 0; index < rows.length; index += 1) {
    for (const value of Object.values(rows[index]!)) spent += weightOf(value);
    if (spent > budget) return index + 1;
  }
  return rows.length;
}
