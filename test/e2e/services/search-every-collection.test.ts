import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { issueToken } from '../../support/token-cli.ts';

interface Hit {
  collection: string;
  uri: string;
  resource: Record<string, unknown>;
}

/**
 * Search without category: every searchable collection the version serves, one list of hits, each
 * naming its collection and URI, in collection order then each collection's own (best match first,
 * then the identifier); row rules hold, and only visible hits are counted.
 */
describe('search across collections: GET /services/{v}/search?q= without category', () => {
  let api: TestApi;
  let ann: string;
  const as = (token: string) => ({ 'User-Agent': 'search-test/1.0', Authorization: `Bearer ${token}` });
  const ids: Record<string, number> = {};
  const names = (hits: Hit[]) => hits.map((hit) => `${hit.collection} ${hit.uri.split('/').at(-1)}`);

  beforeAll(async () => {
    api = await startApi();
    ann = issueToken(api.databaseUrl, 'notes-app', { user: 'ann', scopes: ['notes:write'] });
    const bob = issueToken(api.databaseUrl, 'notes-app', { user: 'bob', scopes: ['notes:write'] });
    const created = async (path: string, body: unknown, token?: string) =>
      (
        await (
          token === undefined
            ? api.post(path, body)
            : api
                .raw()
                .post(path)
                .set(as(token))
                .send(body as object)
        ).expect(201)
      ).body.identity as number;
    ids.pet = await created('/v1/pets', { pet_name: 'Marble' });
    ids.pet2 = await created('/v1/pets', { pet_name: 'Pebble' });
    ids.visit = await created('/v1/visits', {
      pet: ids.pet,
      scheduled_at: '2026-12-02T09:00:00Z',
      reason: 'marble cough',
    });
    ids.annNote = await created('/v1/notes', { owner: 'ann', title: 'marble floor' }, ann);
    ids.bobNote = await created('/v1/notes', { owner: 'bob', title: 'marble statue' }, bob);
  }, 60_000);
  afterAll(async () => api?.close());

  const search = (query: string, token = ann) =>
    api.raw().get(`/services/v1/search?${query}`).set(as(token)).expect(200);

  it('finds the word in every searchable collection, each hit naming its collection and URI, in collection order', async () => {
    const response = await search('q=marble');
    const hits = response.body as Hit[];
    expect(names(hits)).toEqual([`notes ${ids.annNote}`, `pets ${ids.pet}`, `visits ${ids.visit}`]);
    expect(hits[1]).toEqual({
      collection: 'pets',
      uri: `${api.url}/v1/pets/${ids.pet}`,
      resource: expect.objectContaining({ pet_id: ids.pet, pet_name: 'Marble' }),
    });
    expect(hits[2]!.resource).toMatchObject({ pet: `${api.url}/v1/pets/${ids.pet}`, reason: 'marble cough' });
    expect(response.headers['x-total-count']).toBe('3');
  });

  it('a row the caller may not see is no hit and is not counted', async () => {
    const response = await search('q=marble');
    expect(JSON.stringify(response.body)).not.toContain('statue');
    const admin = issueToken(api.databaseUrl, 'notes-admin', { user: 'root', scopes: ['notes:admin'] });
    const all = await search('q=marble', admin);
    expect(names(all.body as Hit[])).toEqual([
      `notes ${ids.annNote}`,
      `notes ${ids.bobNote}`,
      `pets ${ids.pet}`,
      `visits ${ids.visit}`,
    ]);
    expect(all.headers['x-total-count']).toBe('4');
  });

  it('pages through the whole list: limit and offset across collections, Link next and prev', async () => {
    const first = await search('q=marble&limit=2');
    expect(names(first.body as Hit[])).toEqual([`notes ${ids.annNote}`, `pets ${ids.pet}`]);
    const next = new URL(/<([^>]+)>; rel="next"/.exec(first.headers.link!)![1]!);
    expect(next.searchParams.get('q')).toBe('marble');
    expect(next.searchParams.has('category')).toBe(false);
    const second = await search(next.search.slice(1));
    expect(names(second.body as Hit[])).toEqual([`visits ${ids.visit}`]);
    expect(second.headers['x-total-count']).toBe('3');
    expect(second.headers.link).toContain('rel="prev"');
    expect(second.headers.link).not.toContain('rel="next"');
    expect(names((await search('q=marble&offset=1&limit=1')).body as Hit[])).toEqual([`pets ${ids.pet}`]);
    expect((await search('q=marble&offset=5')).body).toEqual([]);
  });

  it('X-Result-Fields names fields of any collection; each resource carries those it has', async () => {
    const response = await api
      .raw()
      .get('/services/v1/search?q=marble')
      .set({ ...as(ann), 'X-Result-Fields': 'pet_name,title' });
    expect((response.body as Hit[]).map((hit) => hit.resource)).toEqual([
      { title: 'marble floor' },
      { pet_name: 'Marble' },
      {},
    ]);
  });

  it('with a category, the search stays one collection’s, answered in its representation', async () => {
    const response = await search('q=marble&category=pets');
    expect(response.body).toEqual([expect.objectContaining({ pet_id: ids.pet, pet_name: 'Marble' })]);
    const unknown = await api.raw().get('/services/v1/search?q=marble&category=orbits').set(as(ann)).expect(400);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'invalid_parameter', field: 'category' });
  });
});
