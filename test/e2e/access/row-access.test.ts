import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerOf } from '../../support/header-of.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { issueToken } from '../../support/token-cli.ts';

/**
 * Row access on every path that reveals or touches a row, on the example's notes (a caller sees its
 * own user's notes; notes:admin sees all). Ann and Bob each own notes; whatever Ann asks, Bob's notes
 * must look exactly as notes that do not exist.
 */
describe('row access: a note the caller may not see is a note that does not exist', () => {
  let api: TestApi;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const as = (who: string) => ({ 'User-Agent': 'row-access-test/1.0', Authorization: `Bearer ${tokens[who]}` });
  const get = (who: string, path: string) => api.raw().get(path).set(as(who));
  const missingId = 999_999;
  /** A 404's body with the identifier it names taken out: what a hidden note and a missing one must share. */
  const withoutId = (body: unknown, id: number) => JSON.parse(JSON.stringify(body).replaceAll(String(id), 'ID'));

  beforeAll(async () => {
    api = await startApi();
    tokens.ann = issueToken(api.databaseUrl, 'notes-app', { user: 'ann', scopes: ['notes:write'] });
    tokens.bob = issueToken(api.databaseUrl, 'notes-app', { user: 'bob', scopes: ['notes:write'] });
    tokens.admin = issueToken(api.databaseUrl, 'notes-admin', { user: 'root', scopes: ['notes:write', 'notes:admin'] });
    tokens.nobody = issueToken(api.databaseUrl, 'no-user', { scopes: ['notes:write'] });
    const create = async (who: string, name: string, body: Record<string, unknown>) => {
      const response = await api.raw().post('/v1/notes').set(as(who)).send(body).expect(201);
      ids[name] = response.body.identity;
    };
    await create('ann', 'ann1', { owner: 'ann', title: 'shared words', text: 'apple pie' });
    await create('ann', 'ann2', { owner: 'ann', title: 'shared words', text: 'ann only' });
    await create('bob', 'bob1', { owner: 'bob', title: 'shared words', text: 'apple tart' });
    await create('bob', 'bob2', { owner: 'bob', title: 'shared words', text: 'bob only' });
    await create('bob', 'bob3', { owner: 'bob', title: 'bob secret', text: 'apple' });
    // The admin may write a note of Ann's that refers to one of Bob's.
    await create('admin', 'annAboutBob', { owner: 'ann', title: 'follow up', about: ids.bob1 });
    // Four tokens issued by the CLI, each a process of its own: a busy machine takes a while.
  }, 120_000);
  afterAll(() => api.close());

  it('GET one: 404 with the body of a missing note', async () => {
    const hidden = await get('ann', `/v1/notes/${ids.bob1}`).expect(404);
    const missing = await get('ann', `/v1/notes/${missingId}`).expect(404);
    expect(withoutId(hidden.body, ids.bob1!)).toEqual(withoutId(missing.body, missingId));
    expect(Object.keys(hidden.headers).sort()).toEqual(Object.keys(missing.headers).sort());
    await get('ann', `/v1/notes/${ids.ann1}`).expect(200);
    await get('admin', `/v1/notes/${ids.bob1}`).expect(200);
  });

  it('a conditional GET of a hidden note is 404, never 304', async () => {
    await get('ann', `/v1/notes/${ids.bob1}`).set('If-None-Match', '*').expect(404);
    await get('ann', `/v1/notes/${ids.bob1}`)
      .set('If-Modified-Since', new Date(Date.now() + 86_400_000).toUTCString())
      .expect(404);
  });

  it('lists count and page visible notes only (X-Total-Count and Link), filters and paging included', async () => {
    const all = await get('ann', '/v1/notes').expect(200);
    expect(all.body.map((note: { note_id: number }) => note.note_id)).toEqual([ids.ann1, ids.ann2, ids.annAboutBob]);
    expect(headerOf(all, 'x-total-count')).toBe('3');
    const filtered = await get('ann', '/v1/notes?title=shared%20words').expect(200);
    expect(filtered.body.map((note: { owner: string }) => note.owner)).toEqual(['ann', 'ann']);
    expect(headerOf(filtered, 'x-total-count')).toBe('2');
    const paged = await get('ann', '/v1/notes?title=shared%20words&limit=1&offset=1').expect(200);
    expect(paged.body.map((note: { note_id: number }) => note.note_id)).toEqual([ids.ann2]);
    expect(headerOf(paged, 'x-total-count')).toBe('2');
    expect(headerOf(paged, 'link')).not.toContain('offset=2');
    const past = await get('ann', '/v1/notes?limit=1&offset=5').expect(200);
    expect(past.body).toEqual([]);
    expect(headerOf(past, 'x-total-count')).toBe('3');
    expect(headerOf(await get('admin', '/v1/notes').expect(200), 'x-total-count')).toBe('6');
    // A token acting for no user owns no note.
    const nobody = await get('nobody', '/v1/notes').expect(200);
    expect(nobody.body).toEqual([]);
    expect(headerOf(nobody, 'x-total-count')).toBe('0');
  });

  it('the search service finds and counts visible notes only', async () => {
    const found = await get('ann', '/services/v1/search?q=apple&category=notes').expect(200);
    expect(found.body.map((note: { note_id: number }) => note.note_id)).toEqual([ids.ann1]);
    expect(headerOf(found, 'x-total-count')).toBe('1');
    const secret = await get('ann', '/services/v1/search?q=secret&category=notes').expect(200);
    expect(secret.body).toEqual([]);
    expect(headerOf(secret, 'x-total-count')).toBe('0');
    expect(
      headerOf(await get('admin', '/services/v1/search?q=apple&category=notes').expect(200), 'x-total-count'),
    ).toBe('3');
    const nobody = await get('nobody', '/services/v1/search?q=apple&category=notes').expect(200);
    expect(nobody.body).toEqual([]);
    expect(headerOf(nobody, 'x-total-count')).toBe('0');
  });

  it('X-Expansion-Fields: a reference to a hidden note stays its URI', async () => {
    const own = await get('ann', `/v1/notes/${ids.annAboutBob}`).set('X-Expansion-Fields', 'true').expect(200);
    expect(own.body.about).toBe(`${api.url}/v1/notes/${ids.bob1}`);
    const listed = await get('ann', '/v1/notes').set('X-Expansion-Fields', 'true').expect(200);
    expect(listed.body.find((note: { note_id: number }) => note.note_id === ids.annAboutBob).about).toBe(
      `${api.url}/v1/notes/${ids.bob1}`,
    );
    const admin = await get('admin', `/v1/notes/${ids.annAboutBob}`).set('X-Expansion-Fields', 'true').expect(200);
    expect(admin.body.about).toMatchObject({ note_id: ids.bob1, owner: 'bob' });
  });

  it('PUT, PATCH and DELETE of a hidden note answer as for a missing one, and change nothing', async () => {
    for (const [method, body] of [
      ['put', { owner: 'ann', title: 'taken' }],
      ['patch', { title: 'taken' }],
      ['delete', undefined],
    ] as const) {
      const send = (id: number) => {
        const test = api.raw()[method](`/v1/notes/${id}`).set(as('ann'));
        return body === undefined ? test : test.send(body);
      };
      const hidden = await send(ids.bob1!).expect(404);
      const missing = await send(missingId).expect(404);
      expect(withoutId(hidden.body, ids.bob1!)).toEqual(withoutId(missing.body, missingId));
    }
    const bobs = await get('bob', `/v1/notes/${ids.bob1}`).expect(200);
    expect(bobs.body).toMatchObject({ owner: 'bob', title: 'shared words' });
  });

  it('a reference written in a body to a hidden note is refused as one to a missing note', async () => {
    const hidden = await api
      .raw()
      .post('/v1/notes')
      .set(as('ann'))
      .send({ owner: 'ann', title: 'x', about: ids.bob2 })
      .expect(422);
    const missing = await api
      .raw()
      .post('/v1/notes')
      .set(as('ann'))
      .send({ owner: 'ann', title: 'x', about: missingId })
      .expect(422);
    expect(withoutId(hidden.body, ids.bob2!)).toEqual(withoutId(missing.body, missingId));
    await api.raw().patch(`/v1/notes/${ids.ann2}`).set(as('ann')).send({ about: ids.bob2 }).expect(422);
    await api.raw().patch(`/v1/notes/${ids.ann2}`).set(as('ann')).send({ about: ids.ann1 }).expect(200);
  });

  it('a caller cannot write a note it could not see: not for another owner, nor give its own away', async () => {
    const foreign = await api
      .raw()
      .post('/v1/notes')
      .set(as('ann'))
      .send({ owner: 'bob', title: 'planted' })
      .expect(403);
    expect(foreign.body.errors[0].code).toBe('row_not_changeable');
    await api.raw().patch(`/v1/notes/${ids.ann1}`).set(as('ann')).send({ owner: 'bob' }).expect(403);
    expect((await get('ann', `/v1/notes/${ids.ann1}`).expect(200)).body.owner).toBe('ann');
    expect(headerOf(await get('bob', '/v1/notes').expect(200), 'x-total-count')).toBe('3');
  });
});
