import { describe, expect, it } from 'vitest';
import { conditionSql } from '../../../runtime/storage/row-condition.ts';
import type { TableSpec } from '../../../runtime/storage/index.ts';

const orders: TableSpec = {
  table: 'orders',
  key: { name: 'order_id', type: 'integer', generated: true },
  columns: [
    { name: 'owner', kind: 'string', unique: false, indexed: true, searchable: false },
    { name: 'state', kind: 'string', unique: false, indexed: true, searchable: false },
  ],
};

const asIs = (_kind: unknown, value: unknown) => value;
const numbered = (index: number) => `$${index}`;

// The SQL text is what each engine runs: PostgreSQL numbers its parameters, SQLite binds them in order.
describe('conditionSql()', () => {
  it("numbers PostgreSQL's parameters from the first one free, in the order the values are bound", () => {
    const condition = {
      all: [{ column: 'owner', equals: 'ada' }, { any: [{ column: 'state', notEquals: 'closed' }] }],
    };
    expect(conditionSql(orders, condition, numbered, 3, asIs)).toEqual({
      sql: '(("owner" = $3) AND (("state" <> $4)))',
      values: ['ada', 'closed'],
    });
  });

  it('an empty "all" holds for every row, an empty "any" for none', () => {
    expect(conditionSql(orders, { all: [] }, numbered, 1, asIs)).toEqual({ sql: '(1 = 1)', values: [] });
    expect(conditionSql(orders, { any: [] }, numbered, 1, asIs)).toEqual({ sql: '(1 = 0)', values: [] });
  });
});
