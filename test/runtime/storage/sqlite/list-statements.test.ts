import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { ListStatements } from '../../../../runtime/storage/sqlite/list-statements.ts';
import { MAX_CACHED_STATEMENTS } from '../../../../runtime/storage/sqlite/statement-cache.ts';
import type { ListQuery, SortKey, TableSpec } from '../../../../runtime/storage/table-spec.ts';
import { compilations } from '../../../support/sqlite-compilations.ts';

const SORTABLE = ['a', 'b', 'c', 'd', 'e'];

const table: TableSpec = {
  table: 'items',
  key: { name: 'item_id', type: 'integer', generated: true },
  columns: SORTABLE.map((name) => ({
    name,
    kind: 'integer',
    unique: false,
    indexed: false,
    sortable: true,
    searchable: false,
  })),
};

function itemsDatabase(): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  db.exec(
    `CREATE TABLE items (item_id INTEGER PRIMARY KEY, ${SORTABLE.map((name) => `${name} INTEGER`).join(', ')}, created_at TEXT, updated_at TEXT)`,
  );
  db.exec(
    `INSERT INTO items VALUES (1, 1, 2, 3, 4, 5, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'), (2, 6, 7, 8, 9, 10, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
  );
  return db;
}

/** Every order of every column, each ascending or descending: far more shapes than the bound. */
function* everyOrder(columns: readonly string[]): Generator<SortKey[]> {
  if (columns.length === 0) return;
  for (const column of columns)
    for (const descending of [false, true]) {
      yield [{ column, descending }];
      for (const rest of everyOrder(columns.filter((other) => other !== column)))
        yield [{ column, descending }, ...rest];
    }
}

describe('the list statements of a connection', () => {
  it('stay bounded however many sort orders clients name, and still answer each', () => {
    const lists = new ListStatements(itemsDatabase());
    let shapes = 0;
    for (const order of everyOrder(SORTABLE)) {
      const query: ListQuery = { where: {}, order, limit: 10, offset: 0 };
      const { rows, total } = lists.list(table, query);
      expect(total).toBe(2);
      const first = order[0]!;
      // Row 1 holds the smaller value in every column: the first sort key's direction decides which comes first.
      const ascendingFirst = rows[0]![first.column]! < rows[1]![first.column]!;
      expect(ascendingFirst).toBe(!first.descending);
      expect(lists.plansOf(table)).toBeLessThanOrEqual(MAX_CACHED_STATEMENTS);
      shapes += 1;
    }
    expect(shapes).toBeGreaterThan(3 * MAX_CACHED_STATEMENTS);
  });
});

describe('a page of a list', () => {
  it('is compiled once, however many pages of any size are read with it', () => {
    const db = itemsDatabase();
    const compiled = compilations(db);
    const lists = new ListStatements(db);
    const first = lists.list(table, { where: {}, limit: 10, offset: 0 });
    expect(first.rows.map((row) => row.item_id)).toEqual([1, 2]);
    expect(compiled()).toBeGreaterThan(0);
    const afterFirst = compiled();
    for (const [limit, offset] of [
      [1, 0],
      [1, 1],
      [2, 0],
      [5, 1],
    ] as const) {
      const { rows, total } = lists.list(table, { where: {}, limit, offset });
      expect(rows.map((row) => row.item_id)).toEqual([1, 2].slice(offset, offset + limit));
      expect(total).toBe(2);
    }
    expect(compiled()).toBe(afterFirst);
  });
});
