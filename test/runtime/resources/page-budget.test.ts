import { describe, expect, it } from 'vitest';
import { largestRowWeight, listWithinBudget, rowsWithinBudget } from '../../../runtime/resources/page-budget.ts';
import type { FieldModel } from '../../../runtime/resources/model.ts';
import type { ListQuery, ListResult, Row, TableSpec } from '../../../runtime/storage/index.ts';

const table = { table: 'reports', key: { name: 'id', type: 'integer', generated: true }, columns: [] } as TableSpec;

/** A store of `count` rows of `size` characters each, answering as SQLite does (at once), counting the rows it hands out. */
function storeOf(count: number, size: number) {
  const all: Row[] = Array.from({ length: count }, (_, index) => ({ id: index + 1, report: 'x'.repeat(size) }));
  const reads: number[] = [];
  return {
    reads,
    list: (_table: TableSpec, query: ListQuery): ListResult => {
      const rows = all.slice(query.offset, query.offset + query.limit);
      reads.push(rows.length);
      return { rows, total: all.length };
    },
  };
}

const query = (limit: number, offset = 0): ListQuery => ({ where: {}, limit, offset });
const field = (maxLength: number): FieldModel => ({ name: 'report', kind: 'string', maxLength }) as FieldModel;

describe('listWithinBudget()', () => {
  it('rows large by declaration are read a few at a time, and reading stops once the budget is passed', () => {
    const store = storeOf(500, 1_000);
    // 1,000 characters, and the server-set columns: 1,200 bytes at most a row.
    const largest = largestRowWeight([field(1_000)]);
    expect(largest).toBe(1_200);
    const { rows, total } = listWithinBudget(store, table, query(500), largest, 10_000) as ListResult;
    // 10 rows of about 1 KB pass 10,000 bytes: the page holds them. Read as 9 (what fits by
    // declaration, and one), then 1: never a row more than the page.
    expect(rows.map((row) => row.id)).toEqual(Array.from({ length: 10 }, (_, index) => index + 1));
    expect(total).toBe(500);
    expect(store.reads).toEqual([9, 1]);
  });

  it('small rows of a table large by declaration: every row the limit asks for, from the offset, in reads of what fits', () => {
    const store = storeOf(100, 10);
    const { rows } = listWithinBudget(store, table, query(50, 30), 1_200, 10_000) as ListResult;
    expect(rows.map((row) => row.id)).toEqual(Array.from({ length: 50 }, (_, index) => index + 31));
    // Each read asks for what still fits by declaration: 9 while little is spent, fewer as it fills.
    expect(store.reads.reduce((sum, count) => sum + count, 0)).toBe(50);
    expect(Math.max(...store.reads)).toBe(9);
    // The last read asks only for what the limit leaves (5 after 9, 9, 8, 8, 8), not for all that fits.
    const { rows: page } = listWithinBudget(storeOf(100, 10), table, query(47), 1_200, 10_000) as ListResult;
    expect(page).toHaveLength(47);
  });

  it('a limit within one read, or the end of the rows, reads once', () => {
    const store = storeOf(5, 10);
    expect((listWithinBudget(store, table, query(9), 1_200, 10_000) as ListResult).rows).toHaveLength(5);
    expect((listWithinBudget(store, table, query(20), 1_200, 10_000) as ListResult).rows).toHaveLength(5);
    expect(store.reads).toEqual([5, 5]);
  });
});

describe('rowsWithinBudget()', () => {
  // A row of one string of n characters weighs n + 8; anything else 16.
  const rowsOf = (count: number, size: number): Row[] =>
    Array.from({ length: count }, () => ({ report: 'x'.repeat(size) }));

  it('a page is cut after the row that passes the budget: one reaching it exactly is not past it', () => {
    expect(rowsWithinBudget(rowsOf(10, 92), 300)).toBe(4);
    expect(rowsWithinBudget(rowsOf(10, 92), 299)).toBe(3);
  });

  it('short values weigh too: rows of empty strings and numbers fill a page', () => {
    expect(rowsWithinBudget(rowsOf(10, 0), 16)).toBe(3);
    expect(
      rowsWithinBudget(
        Array.from({ length: 10 }, (_, id) => ({ id })),
        32,
      ),
    ).toBe(3);
  });

  it('a list or a nested object weighs what its members weigh, as jsonb hands them back', () => {
    const tags = (count: number): Row => ({ tags: Array.from({ length: count }, () => 'x'.repeat(92)) });
    // 16 for the list, 100 for each tag: 316 a row, 948 for three; cut after the row that passes the budget.
    expect(rowsWithinBudget([tags(3), tags(3), tags(3), tags(3)], 948)).toBe(4);
    expect(rowsWithinBudget([tags(3), tags(3), tags(3), tags(3)], 947)).toBe(3);
    expect(rowsWithinBudget([tags(3), tags(3), tags(3), tags(3)], 631)).toBe(2);
    const owner = (size: number): Row => ({ owner: { name: 'x'.repeat(size), address: { city: 'x'.repeat(size) } } });
    // Each object 16 and its members' names and values: 16 + 4 + 508 + 7 + 16 + 4 + 508 = 1,063 for 500.
    expect(rowsWithinBudget([owner(500), owner(500), owner(500)], 1_062)).toBe(1);
    expect(rowsWithinBudget([owner(500), owner(500), owner(500)], 2_125)).toBe(2);
  });

  it('every row fits when the budget is not passed', () => {
    expect(rowsWithinBudget(rowsOf(3, 92))).toBe(3);
  });
});

describe('largestRowWeight()', () => {
  it("a nested object weighs what its fields do, a field that is not a string 16, the server's columns 192", () => {
    const nested = {
      name: 'address',
      kind: 'object',
      fields: [field(100), { name: 'floor', kind: 'integer' } as FieldModel],
    } as unknown as FieldModel;
    expect(largestRowWeight([nested, { name: 'paid', kind: 'boolean' } as FieldModel])).toBe(192 + 108 + 16 + 16);
  });
});

describe('listWithinBudget(): where a page ends', () => {
  it('a row reaching the budget exactly is not past it: reading goes on to the row that passes it', () => {
    // Each row: its id (16) and 76 characters (84), 100 bytes; read one at a time (1,200 by declaration).
    const { rows } = listWithinBudget(storeOf(10, 76), table, query(10), 1_200, 300) as ListResult;
    expect(rows).toHaveLength(4);
  });
});
