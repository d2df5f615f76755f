import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';

/**
 * Sorting, comparison filters and paging against an in-memory reference, on random data and random
 * queries: the server's page and X-Total-Count are the reference's.
 */

interface Stored {
  readonly visit_id: number;
  readonly scheduled_at: string;
  readonly fee?: number;
}

type SortField = 'visit_id' | 'scheduled_at' | 'fee';
type Operator = 'gt' | 'gte' | 'lt' | 'lte';

interface Query {
  readonly sort: readonly { field: SortField; descending: boolean }[];
  readonly ranges: readonly { field: 'scheduled_at' | 'fee'; operator: Operator; value: string | number }[];
  readonly limit: number;
  readonly offset: number;
}

/** Few distinct values, so ties and equal bounds are common. */
const TIMES = [
  '2026-12-01T08:00:00Z',
  '2026-12-01T09:30:00Z',
  '2026-12-02T00:00:00Z',
  '2026-12-02T23:59:59Z',
  '2026-12-03T12:00:00Z',
];
const FEES = [0, 10, 12.5, 40, 99];

const visitArbitrary = fc.record({
  scheduled_at: fc.constantFrom(...TIMES),
  fee: fc.option(fc.constantFrom(...FEES), { nil: undefined }),
});

const queryArbitrary: fc.Arbitrary<Query> = fc.record({
  sort: fc.uniqueArray(
    fc.record({ field: fc.constantFrom<SortField>('visit_id', 'scheduled_at', 'fee'), descending: fc.boolean() }),
    { maxLength: 3, selector: (key) => key.field },
  ),
  ranges: fc.uniqueArray(
    fc.oneof(
      fc.record({
        field: fc.constant('scheduled_at' as const),
        operator: fc.constantFrom<Operator>('gt', 'gte', 'lt', 'lte'),
        value: fc.constantFrom<string | number>(...TIMES),
      }),
      fc.record({
        field: fc.constant('fee' as const),
        operator: fc.constantFrom<Operator>('gt', 'gte', 'lt', 'lte'),
        value: fc.constantFrom<string | number>(...FEES),
      }),
    ),
    { maxLength: 3, selector: (range) => `${range.field}.${range.operator}` },
  ),
  limit: fc.integer({ min: 1, max: 12 }),
  offset: fc.integer({ min: 0, max: 45 }),
});

const holds = (stored: unknown, operator: Operator, bound: string | number) => {
  if (stored === undefined) return false;
  const [a, b] = [stored as string | number, bound];
  return operator === 'gt' ? a > b : operator === 'gte' ? a >= b : operator === 'lt' ? a < b : a <= b;
};

/** Null (absent) sorts as the smallest value; ties by the identifier in the direction of the last key. */
function reference(rows: readonly Stored[], query: Query): { ids: number[]; total: number } {
  const matching = rows.filter((row) =>
    query.ranges.every((range) => holds(row[range.field], range.operator, range.value)),
  );
  const keys = [...query.sort, { field: 'visit_id' as const, descending: query.sort.at(-1)?.descending ?? false }];
  const compare = (a: Stored, b: Stored) => {
    for (const { field, descending } of keys) {
      const [x, y] = [a[field], b[field]];
      if (x === y) continue;
      const order = x === undefined ? -1 : y === undefined ? 1 : x < y ? -1 : 1;
      return descending ? -order : order;
    }
    return 0;
  };
  const sorted = [...matching].sort(compare);
  return {
    ids: sorted.slice(query.offset, query.offset + query.limit).map((row) => row.visit_id),
    total: matching.length,
  };
}

function queryString(query: Query): string {
  const parameters = new URLSearchParams({ limit: String(query.limit), offset: String(query.offset) });
  if (query.sort.length > 0)
    parameters.set('sort', query.sort.map((key) => `${key.descending ? '-' : ''}${key.field}`).join(','));
  for (const range of query.ranges) parameters.set(`${range.field}.${range.operator}`, String(range.value));
  return parameters.toString();
}

describe('sorting, comparison filters and paging agree with an in-memory reference on random data', () => {
  let api: TestApi;
  const rows: Stored[] = [];

  beforeAll(async () => {
    api = await startApi();
    const pet = (await api.post('/v1/pets', { pet_name: 'Rex' }).expect(201)).body.identity as number;
    for (const visit of fc.sample(visitArbitrary, {
      numRuns: 40,
      seed: Number(process.env.LIST_PROPERTY_SEED ?? 20261202),
    })) {
      const created = await api.post('/v1/visits', { pet, ...visit }).expect(201);
      rows.push({ visit_id: created.body.identity as number, ...visit });
    }
  }, 120_000);
  afterAll(async () => api?.close());

  it('every random query answers the reference page and count', async () => {
    await fc.assert(
      fc.asyncProperty(queryArbitrary, async (query) => {
        const response = await api.get(`/v1/visits?${queryString(query)}`).expect(200);
        const want = reference(rows, query);
        expect((response.body as Stored[]).map((row) => row.visit_id)).toEqual(want.ids);
        expect(Number(response.headers['x-total-count'])).toBe(want.total);
      }),
      { numRuns: Number(process.env.LIST_PROPERTY_RUNS ?? 150) },
    );
  }, 240_000);
});
