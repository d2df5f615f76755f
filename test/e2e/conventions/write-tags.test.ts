import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { issueToken } from '../../support/token-cli.ts';

/**
 * A PUT or PATCH that answers the resource (aggregate, setting) it changed marks its new version as a GET of it would
 * (conventions: a response marks the data version with E-Tag or Last-Modified), so a client can
 * send its next If-Match without reading the resource again.
 */
describe('the version of what a write answers', () => {
  let api: TestApi;
  let order: string;
  beforeAll(async () => {
    api = await startApi();
    order = new URL((await api.post('/v1/orders', { item: 'tagged', quantity: 1 }).expect(201)).body.uri).pathname;
  });
  afterAll(async () => api.close());

  it('PATCH and PUT of a collection resource answer the ETag, E-Tag and Last-Modified a GET then gives', async () => {
    const patched = await api.patch(order, { quantity: 2 }).expect(200);
    const read = await api.get(order).expect(200);
    expect(patched.headers.etag).toBeDefined();
    expect(patched.headers.etag).toBe(read.headers.etag);
    expect(patched.headers['e-tag']).toBe(read.headers.etag);
    expect(patched.headers['last-modified']).toBe(read.headers['last-modified']);
    const replaced = await api.put(order, { item: 'tagged', quantity: 3 }).expect(200);
    expect(replaced.headers.etag).toBe((await api.get(order).expect(200)).headers.etag);
    // The tag is good for the next write at once, and stale after it.
    const chained = await api.patch(order, { quantity: 4 }).set('If-Match', replaced.headers.etag!).expect(200);
    await api.patch(order, { quantity: 5 }).set('If-Match', replaced.headers.etag!).expect(412);
    await api.patch(order, { quantity: 5 }).set('If-Match', chained.headers.etag!).expect(200);
  });

  it('whatever the answer presents, the tag is the whole resource’s', async () => {
    const fewer = await api.patch(order, { quantity: 6 }).set('X-Result-Fields', 'item').expect(200);
    expect(fewer.body).toEqual({ item: 'tagged' });
    expect(fewer.headers.etag).toBe((await api.get(order).expect(200)).headers.etag);
  });

  it('an aggregate’s PUT and PATCH too', async () => {
    const user = new URL((await api.post('/v1/users', { user_name: 'tagged-user' }).expect(201)).body.uri).pathname;
    const put = await api.put(`${user}/profiles`, { full_name: 'Ann Tag' }).expect(200);
    expect(put.headers.etag).toBe((await api.get(`${user}/profiles`).expect(200)).headers.etag);
    const patched = await api
      .patch(`${user}/profiles`, { full_name: 'Ann Tagged' })
      .set('X-Result-Fields', 'full_name')
      .expect(200);
    expect(patched.headers.etag).toBe((await api.get(`${user}/profiles`).expect(200)).headers.etag);
  });

  it('a setting’s PUT and PATCH too, whatever the answer presents', async () => {
    const put = await api.put('/settings/v1/gui/lang', { lang: 'en-GB' }).expect(200);
    expect(put.headers.etag).toBeDefined();
    expect(put.headers['e-tag']).toBe(put.headers.etag);
    expect(put.headers.etag).toBe((await api.get('/settings/v1/gui/lang').expect(200)).headers.etag);
    const patched = await api
      .patch('/settings/v1/gui/lang', { lang: 'en-US' })
      .set('X-Result-Fields', 'lang')
      .set('X-Pretty-Print', 'false')
      .expect(200);
    expect(patched.headers.etag).toBe((await api.get('/settings/v1/gui/lang').expect(200)).headers.etag);
  });

  it('a setting’s If-Match: the tag read is good for one write, a stale one writes nothing (412)', async () => {
    const read = await api.get('/settings/v2/gui/lang').expect(200);
    const written = await api
      .put('/settings/v2/gui/lang', { lang: 'de-DE' })
      .set('If-Match', read.headers.etag!)
      .expect(200);
    const refused = await api
      .patch('/settings/v2/gui/lang', { lang: 'fr-FR' })
      .set('If-Match', read.headers.etag!)
      .expect(412);
    expect(refused.body.errors[0]).toMatchObject({ code: 'precondition_failed' });
    await api.get('/settings/v2/gui/lang').expect(200, { lang: 'de-DE' });
    await api.patch('/settings/v2/gui/lang', { lang: 'fr-FR' }).set('If-Match', written.headers.etag!).expect(200);
  });

  it('a setting’s If-Match before its first write names the defaults; two writes on one tag at once: one is made', async () => {
    const token = issueToken(api.databaseUrl, 'settings-race', { user: 'bo' });
    const as = { 'User-Agent': 'e2e', Authorization: `Bearer ${token}` };
    const first = await api.raw().get('/settings/v1/gui/lang').set(as).expect(200);
    const statuses = await Promise.all(
      ['it-IT', 'ja-JP'].map(
        async (lang) =>
          (await api.raw().put('/settings/v1/gui/lang').set(as).set('If-Match', first.headers.etag!).send({ lang }))
            .status,
      ),
    );
    expect(statuses.sort()).toEqual([200, 412]);
  });

  it('a write answered with no representation (Prefer: return=minimal) carries no tag', async () => {
    const minimal = await api.patch(order, { quantity: 7 }).set('Prefer', 'return=minimal').expect(204);
    expect(minimal.headers.etag).toBeUndefined();
  });
});
