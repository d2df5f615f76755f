import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';

interface Visit {
  visit_id: number;
  pet: string;
  scheduled_at: string;
  fee?: number;
}

/**
 * A collection served below its parent (visits declare `parent: 'pet'`): /{v}/pets/{pet_id}/visits
 * lists, creates and reads the visits of one pet, as the top-level paths do for every visit.
 */
describe('sub-collections: a pet’s visits at /{v}/pets/{pet_id}/visits', () => {
  let api: TestApi;
  let rex: number;
  let tom: number;
  const ids = (visits: Visit[]) => visits.map((visit) => visit.visit_id);
  const nextOf = (link: string) => new URL(/<([^>]+)>; rel="next"/.exec(link)![1]!);

  beforeAll(async () => {
    api = await startApi();
    rex = (await api.post('/v1/pets', { pet_name: 'Rex' }).expect(201)).body.identity as number;
    tom = (await api.post('/v1/pets', { pet_name: 'Tom' }).expect(201)).body.identity as number;
    // Visits 1..5 of Rex (at the top level and below Rex), 6..7 of Tom.
    for (const [day, fee] of [
      [3, 40],
      [1, 25],
      [5, 90],
    ] as const)
      await api.post('/v1/visits', { pet: rex, scheduled_at: `2026-12-0${day}T09:00:00Z`, fee }).expect(201);
    for (const [day, fee] of [
      [2, 10],
      [4, 60],
    ] as const)
      await api.post(`/v1/pets/${rex}/visits`, { scheduled_at: `2026-12-0${day}T09:00:00Z`, fee }).expect(201);
    for (const day of [1, 2])
      await api.post(`/v2/pets/${tom}/visits`, { scheduled_at: `2026-12-0${day}T10:00:00Z` }).expect(201);
  });
  afterAll(async () => api?.close());

  it('lists the visits of one pet only, counted in X-Total-Count, in both versions and the /(list) form', async () => {
    const response = await api.get(`/v1/pets/${rex}/visits`).expect(200);
    expect(ids(response.body as Visit[])).toEqual([1, 2, 3, 4, 5]);
    expect(response.headers['x-total-count']).toBe('5');
    expect((response.body as Visit[]).every((visit) => visit.pet === `${api.url}/v1/pets/${rex}`)).toBe(true);
    expect(ids((await api.get(`/v2/pets/${tom}/visits`).expect(200)).body as Visit[])).toEqual([6, 7]);
    expect(ids((await api.get(`/v1/pets/${tom}/visits/(list)`).expect(200)).body as Visit[])).toEqual([6, 7]);
  });

  it('takes the same filters and sort as the top-level list; Link next keeps the path, the sort and the filters', async () => {
    const first = await api.get(`/v1/pets/${rex}/visits?sort=-scheduled_at&fee.gte=20&limit=2`).expect(200);
    expect(ids(first.body as Visit[])).toEqual([3, 5]);
    expect(first.headers['x-total-count']).toBe('4');
    const next = nextOf(first.headers.link!);
    expect(next.pathname).toBe(`/v1/pets/${rex}/visits`);
    expect(next.searchParams.get('sort')).toBe('-scheduled_at');
    expect(next.searchParams.get('fee.gte')).toBe('20');
    const second = await api.get(`${next.pathname}${next.search}`).expect(200);
    expect(ids(second.body as Visit[])).toEqual([1, 2]);
    expect(second.headers.link).toContain('rel="prev"');
    expect(second.headers.link).not.toContain('rel="next"');
  });

  it('a filter on the parent field naming the same pet is kept; another pet is 400 naming the field', async () => {
    expect(ids((await api.get(`/v1/pets/${rex}/visits?pet=${rex}&fee.lt=30`).expect(200)).body as Visit[])).toEqual([
      2, 4,
    ]);
    const refused = await api.get(`/v1/pets/${rex}/visits?pet=${tom}`).expect(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'invalid_parameter', field: 'pet' });
    const unknown = await api.get(`/v1/pets/${rex}/visits?colour=red`).expect(400);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'unknown_parameter', field: 'colour' });
  });

  it('POST below a pet creates a visit of that pet, with its own URI; a body naming the same pet is accepted', async () => {
    const created = await api
      .post(`/v1/pets/${tom}/visits`, { scheduled_at: '2026-12-09T09:00:00+01:00', pet: `/v1/pets/${tom}` })
      .expect(201);
    expect(created.headers.location).toBe(`${api.url}/v1/visits/${created.body.identity}`);
    const read = await api.get(`/v1/visits/${created.body.identity}`).expect(200);
    expect(read.body).toMatchObject({ pet: `${api.url}/v1/pets/${tom}`, scheduled_at: '2026-12-09T08:00:00Z' });
    await api.delete(`/v1/visits/${created.body.identity}`).expect(204);
  });

  it('a body naming another pet (or none) is 422 parent_mismatch naming the field, and nothing is written', async () => {
    for (const pet of [rex, `${api.url}/v1/pets/${rex}`, null]) {
      const refused = await api
        .post(`/v1/pets/${tom}/visits`, { scheduled_at: '2026-12-09T09:00:00Z', pet })
        .expect(422);
      expect(refused.body.errors[0]).toMatchObject({ code: 'parent_mismatch', field: 'pet' });
    }
    expect((await api.get('/v1/visits').expect(200)).headers['x-total-count']).toBe('7');
    // The body is still checked as a POST's: a missing required field is 400 naming it.
    const incomplete = await api.post(`/v1/pets/${tom}/visits`, {}).expect(400);
    expect(incomplete.body.errors[0]).toMatchObject({ field: 'scheduled_at' });
  });

  it('reads one visit below its own pet; below another pet it is 404, as a missing visit', async () => {
    const read = await api.get(`/v1/pets/${rex}/visits/1`).expect(200);
    expect(read.body).toMatchObject({ visit_id: 1, pet: `${api.url}/v1/pets/${rex}` });
    const wrong = await api.get(`/v1/pets/${tom}/visits/1`).expect(404);
    const missing = await api.get(`/v1/pets/${tom}/visits/999`).expect(404);
    expect(wrong.body.errors[0].code).toBe('resource_not_found');
    const withoutId = (body: unknown) => JSON.stringify(body).replace(/\bvisit (1|999)\b/g, 'visit N');
    expect(withoutId(wrong.body)).toBe(withoutId(missing.body));
  });

  it('a missing pet is 404 resource_not_found naming pets on every path below it, and nothing is created', async () => {
    for (const [method, path] of [
      ['get', '/v1/pets/999/visits'],
      ['get', '/v1/pets/999/visits/(list)'],
      ['get', '/v1/pets/999/visits/1'],
      ['post', '/v1/pets/999/visits'],
    ] as const) {
      const test = method === 'get' ? api.get(path) : api.post(path, { scheduled_at: '2026-12-09T09:00:00Z' });
      const response = await test.expect(404);
      expect(response.body.errors[0], `${method} ${path}`).toMatchObject({
        code: 'resource_not_found',
        resource: 'pets',
      });
    }
    expect((await api.get('/v1/visits').expect(200)).headers['x-total-count']).toBe('7');
    expect((await api.get('/v1/pets/abc/visits').expect(400)).body.errors[0]).toMatchObject({
      code: 'invalid_identifier',
      field: 'pet_id',
    });
  });

  it('only list, create and read are served below the pet: the writes of one visit stay at its own path', async () => {
    const response = await api.delete(`/v1/pets/${rex}/visits/1`).expect(405);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
  });
});
