import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';

interface Visit {
  visit_id: number;
  scheduled_at: string;
  fee?: number;
}

/** Lists sorted by declared sortable fields and filtered by comparisons on numbers and times. */
describe('lists: sort and comparison filters', () => {
  let api: TestApi;
  let pet: number;
  const ids = (visits: Visit[]) => visits.map((visit) => visit.visit_id);

  beforeAll(async () => {
    api = await startApi();
    pet = (await api.post('/v1/pets', { pet_name: 'Rex' }).expect(201)).body.identity as number;
    // visit_id 1..6: two share a time and a fee (ties), one has no fee.
    for (const [scheduled_at, fee] of [
      ['2026-12-02T09:00:00Z', 40],
      ['2026-12-01T10:00:00+02:00', 25],
      ['2026-12-03T08:00:00Z', undefined],
      ['2026-12-02T09:00:00Z', 40],
      ['2026-11-30T23:30:00-01:00', 90],
      ['2026-12-04T12:00:00Z', 10.5],
    ] as const) {
      await api.post('/v1/visits', { pet, scheduled_at, ...(fee === undefined ? {} : { fee }) }).expect(201);
    }
  });
  afterAll(async () => api?.close());

  const list = async (query: string) => (await api.get(`/v2/visits?${query}`).expect(200)).body as Visit[];

  it('sorts ascending and descending; ties are broken by the identifier in the direction of the last key', async () => {
    expect(ids(await list('sort=scheduled_at'))).toEqual([5, 2, 1, 4, 3, 6]);
    expect(ids(await list('sort=-scheduled_at'))).toEqual([6, 3, 4, 1, 2, 5]);
    expect(ids(await list('sort=visit_id'))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids(await list('sort=-visit_id'))).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('sorts by several keys; a missing value sorts first ascending and last descending', async () => {
    expect(ids(await list('sort=fee'))).toEqual([3, 6, 2, 1, 4, 5]);
    expect(ids(await list('sort=-fee'))).toEqual([5, 4, 1, 2, 6, 3]);
    expect(ids(await list('sort=-fee,scheduled_at'))).toEqual([5, 1, 4, 2, 6, 3]);
  });

  it('compares times given with any offset (encoded), in UTC', async () => {
    const from = encodeURIComponent('2026-12-02T11:00:00+02:00');
    expect(ids(await list(`scheduled_at.gte=${from}&sort=scheduled_at`))).toEqual([1, 4, 3, 6]);
    expect(ids(await list(`scheduled_at.gt=${from}&sort=scheduled_at`))).toEqual([3, 6]);
    expect(ids(await list('scheduled_at.lt=2026-12-02T09:00:00Z'))).toEqual([2, 5]);
    expect(ids(await list('scheduled_at.lte=2026-12-02T09:00:00Z&scheduled_at.gte=2026-12-01T00:00:00Z'))).toEqual([
      1, 2, 4, 5,
    ]);
    expect(ids(await list(`scheduled_at=${encodeURIComponent('2026-12-02T10:00:00+01:00')}`))).toEqual([1, 4]);
  });

  it('compares numbers, with the count of every match in X-Total-Count', async () => {
    const response = await api.get('/v1/visits?fee.gte=25&fee.lt=90&sort=-fee&limit=2').expect(200);
    expect(ids(response.body as Visit[])).toEqual([4, 1]);
    expect(response.headers['x-total-count']).toBe('3');
  });

  it('Link next and prev keep the sort and the filters, and paging under a sort is stable', async () => {
    const first = await api.get('/v1/visits?sort=-scheduled_at&fee.gte=10&limit=2').expect(200);
    expect(ids(first.body as Visit[])).toEqual([6, 4]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link!)![1]!;
    const url = new URL(next);
    expect(url.searchParams.get('sort')).toBe('-scheduled_at');
    expect(url.searchParams.get('fee.gte')).toBe('10');
    const second = await api.get(`${url.pathname}${url.search}`).expect(200);
    expect(ids(second.body as Visit[])).toEqual([1, 2]);
    const prev = /<([^>]+)>; rel="prev"/.exec(second.headers.link!)![1]!;
    expect(ids((await api.get(new URL(prev).pathname + new URL(prev).search).expect(200)).body as Visit[])).toEqual([
      6, 4,
    ]);
  });

  it.each([
    [
      'a field not declared sortable',
      'sort=reason',
      'invalid_sort',
      'sort',
      /"reason" is not a sortable field of visits; sort by visit_id, scheduled_at, fee/,
    ],
    ['an unknown field', 'sort=-colour', 'invalid_sort', 'sort', /"colour" is not a sortable field/],
    ['an empty name', 'sort=fee,', 'invalid_sort', 'sort', /an empty name/],
    ['a name twice', 'sort=fee,-fee', 'invalid_sort', 'sort', /"fee" is named more than once/],
    ['sort given twice', 'sort=fee&sort=visit_id', 'repeated_parameter', 'sort', /more than once/],
    ['an unknown comparison', 'fee.between=1', 'unknown_parameter', 'fee.between', /fee\.gt\|fee\.gte/],
    [
      'a comparison on a field that is not filterable',
      'reason.gt=a',
      'unknown_parameter',
      'reason.gt',
      /not a filter of visits/,
    ],
    ['a comparison on a reference', 'pet.gt=1', 'unknown_parameter', 'pet.gt', /not a filter of visits/],
    ['a number that is not one', 'fee.gte=cheap', 'invalid_parameter', 'fee.gte', /must be a number/],
    [
      'a time without an offset',
      'scheduled_at.gte=2026-12-02T09:00:00',
      'invalid_parameter',
      'scheduled_at.gte',
      /ISO 8601/,
    ],
    [
      'a + left unencoded (a space once decoded)',
      'scheduled_at.gte=2026-12-02T09:00:00+02:00',
      'invalid_parameter',
      'scheduled_at.gte',
      /encode \+ as %2B/,
    ],
  ])('%s: 400 %s naming %s', async (_name, query, code, field, message) => {
    const refused = await api.get(`/v1/visits?${query}`).expect(400);
    expect(refused.body.errors[0]).toMatchObject({ code, field });
    expect(refused.body.errors[0].message).toMatch(message);
  });

  it('a list without sort or comparison is ordered by the identifier, as before', async () => {
    expect(ids(await list(''))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids(await list(`pet=${pet}`))).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
