import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../runtime/auth/index.ts';
import { rowCondition, rowMatches, type RowRuleModel } from '../../../runtime/resources/row-access.ts';
import {
  openDatabase,
  runFlow,
  SqliteResourceStore,
  wait,
  type ResourceStore,
  type Row,
  type TableSpec,
} from '../../../runtime/storage/index.ts';
import { connectPostgres } from '../../../runtime/storage/postgres/connect.ts';
import { PostgresResourceStore } from '../../../runtime/storage/postgres/postgres-store.ts';
import { newTestDatabase, testEngine } from '../../support/test-database.ts';

/**
 * A row rule compiled for a caller into the store's WHERE clause finds exactly the rows the same rule
 * checked in memory (rowMatches) accepts: on random rows (NULLs included), random rules (and/or
 * nested, equals and notEquals with the caller's values or constants, scopes) and random callers
 * (with or without a user, with some scopes, or none at all). Lists, their counts and reads by key.
 */

const USERS = ['ann', 'bob'];
const CLIENTS = ['app', 'ann'];
const SCOPES = ['s:read', 's:admin'];

const columnsOf = { owner: 'string', team: 'string', level: 'integer', open: 'boolean' } as const;
type Column = keyof typeof columnsOf;

const constants: Record<Column, fc.Arbitrary<string | number | boolean>> = {
  owner: fc.constantFrom('ann', 'bob', 'app'),
  team: fc.constantFrom('ann', 'red'),
  level: fc.integer({ min: 0, max: 2 }),
  open: fc.boolean(),
};
const callerValue = fc.constantFrom({ caller: 'user' as const }, { caller: 'client' as const });

/** A comparison of one column with an operand of its own type (a string column also with the caller's values). */
const comparison: fc.Arbitrary<RowRuleModel> = fc
  .constantFrom(...(Object.keys(columnsOf) as Column[]))
  .chain((field) => {
    const operand = columnsOf[field] === 'string' ? fc.oneof(callerValue, constants[field]) : constants[field];
    return fc.oneof(
      operand.map((equals): RowRuleModel => ({ field, equals })),
      operand.map((notEquals): RowRuleModel => ({ field, notEquals })),
    );
  });

const { rule: ruleArbitrary } = fc.letrec<{ rule: RowRuleModel }>((tie) => ({
  rule: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison,
    fc.constantFrom(...SCOPES).map((scope): RowRuleModel => ({ scope })),
    fc.array(tie('rule'), { maxLength: 3 }).map((all): RowRuleModel => ({ all })),
    fc.array(tie('rule'), { maxLength: 3 }).map((any): RowRuleModel => ({ any })),
  ),
}));

const callerArbitrary: fc.Arbitrary<Caller | undefined> = fc.option(
  fc
    .record({
      client: fc.constantFrom(...CLIENTS),
      user: fc.option(fc.constantFrom(...USERS), { nil: undefined }),
      scopes: fc.subarray(SCOPES),
    })
    .map((caller) => {
      const { user, ...rest } = caller;
      return user === undefined ? rest : { ...rest, user };
    }),
  { nil: undefined },
);

const rowArbitrary = fc.record(
  { owner: constants.owner, team: constants.team, level: constants.level, open: constants.open },
  { requiredKeys: [] },
);

let tables = 0;
const tableSpec = (): TableSpec => ({
  table: `things_${++tables}`,
  key: { name: 'thing_id', type: 'integer', generated: true },
  columns: (Object.keys(columnsOf) as Column[]).map((name) => ({
    name,
    kind: columnsOf[name],
    unique: false,
    indexed: name === 'owner',
    searchable: false,
  })),
});

describe(`a row rule as SQL agrees with the rule checked in memory (${testEngine()})`, () => {
  let store: ResourceStore;
  beforeAll(async () => {
    const databaseUrl = await newTestDatabase();
    store = databaseUrl.startsWith('sqlite:')
      ? new SqliteResourceStore(openDatabase(databaseUrl.slice('sqlite:'.length)))
      : new PostgresResourceStore(await connectPostgres(databaseUrl, { size: 2 }));
  });
  afterAll(async () => store?.close());

  it('lists, counts and reads by key exactly the rows rowMatches accepts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArbitrary, { maxLength: 12 }),
        fc.array(fc.tuple(ruleArbitrary, callerArbitrary), { minLength: 1, maxLength: 6 }),
        async (rows, cases) => {
          const table = tableSpec();
          await store.migrate([table]);
          const stored: Row[] = await store.transaction((tx) =>
            runFlow(
              (function* () {
                const inserted: Row[] = [];
                for (const row of rows) inserted.push(yield* wait(tx.insert(table, row)));
                return inserted;
              })(),
            ),
          );
          for (const [rule, caller] of cases) {
            const expected = stored.filter((row) => rowMatches(rule, caller, row)).map((row) => row.thing_id);
            const visible = rowCondition(rule, caller);
            const listed = await store.list(table, {
              where: {},
              limit: 100,
              offset: 0,
              ...(visible === undefined ? {} : { visible }),
            });
            expect(listed.rows.map((row) => row.thing_id).sort()).toEqual([...expected].sort());
            expect(listed.total).toBe(expected.length);
            for (const row of stored) {
              const found = await store.find(table, row.thing_id, visible);
              expect(found !== undefined, `row ${JSON.stringify(row)}`).toBe(expected.includes(row.thing_id));
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
