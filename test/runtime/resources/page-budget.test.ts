import { describe, expect, it } from 'vitest';
import { listWithinBudget, rowsReadAtOnce } from '../../../runtime/resources/page-budget.ts';
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
    const atOnce = rowsReadAtOnce([field(1_000)], 10_000);
    expect(atOnce).toBe(8);
    const { rows, total } = listWithinBudget(store, table, query(500), atOnce, 10_000) as ListResult;
    // 10 rows of about 1 KB pass 10,000 bytes: the page holds them, and no read held more than 8.
    expect(rows.map((row) => row.id)).toEqual(Array.from({ length: 10 }, (_, index) => index + 1));
    expect(total).toBe(500);
    expect(Math.max(...store.reads)).toBeLessThanOrEqual(atOnce);
    expect(store.reads.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(10 + atOnce);
  });

  it('small rows of a table large by declaration: every row the limit asks for, from the offset, in reads of atOnce', () => {
    const store = storeOf(100, 10);
    const { rows } = listWithinBudget(store, table, query(50, 30), 8, 10_000) as ListResult;
    expect(rows.map((row) => row.id)).toEqual(Array.from({ length: 50 }, (_, index) => index + 31));
    expect(store.reads).toEqual([8, 8, 8, 8, 8, 8, 2]);
  });

  it('a limit within one read, or the end of the rows, reads once', () => {
    const store = storeOf(5, 10);
    expect((listWithinBudget(store, table, query(8), 8) as ListResult).rows).toHaveLength(5);
    expect((listWithinBudget(store, table, query(20), 8) as ListResult).rows).toHaveLength(5);
    expect(store.reads).toEqual([5, 5]);
  });
});
