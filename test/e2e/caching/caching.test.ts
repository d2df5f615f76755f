import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { headerOf } from '../../support/header-of.ts';
import { raceIfMatch } from '../../support/racing-writes.ts';

describe('caching, compression and presentation headers on the generated server', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { SERVER_HEADER: 'example-api' } });
    await api.post('/v1/orders', { item: 'apples', quantity: 1 }).expect(201);
    for (let i = 0; i < 30; i++)
      await api.post('/v1/orders', { item: `item number ${i}`, quantity: i + 1 }).expect(201);
    await api.post('/v1/trades', { trade_name: 'first trade', order: 1 }).expect(201);
  });
  afterAll(async () => api.close());

  it.each([
    ['/v1/orders/1'],
    ['/v1/orders'],
    ['/v2/orders?limit=5'],
    ['/services/v1/search?q=apples&category=orders'],
    ['/settings/v1/gui/lang'],
  ])('GET %s: ETag equals E-Tag; If-None-Match → 304 with no body and the same tag', async (path) => {
    const first = await api.get(path).expect(200);
    expect(headerOf(first, 'etag')).toMatch(/^"/);
    expect(first.headers['e-tag']).toBe(headerOf(first, 'etag'));
    const second = await api.get(path).set('If-None-Match', headerOf(first, 'etag')).expect(304);
    expect(second.text).toBe('');
    expect(headerOf(second, 'etag')).toBe(headerOf(first, 'etag'));
  });

  it('the tag is the version of the data: projection, expansion and layout keep it, another API version changes it', async () => {
    const tagOf = async (path: string, header: string, value: string) =>
      headerOf(await api.get(path).set(header, value).expect(200), 'etag');
    const v1 = await tagOf('/v1/trades/1', 'X-Pretty-Print', 'true');
    for (const [header, value] of [
      ['X-Result-Fields', 'trade_name'],
      ['X-Expansion-Fields', 'true'],
      ['X-Pretty-Print', 'false'],
    ] as const) {
      expect(await tagOf('/v1/trades/1', header, value), header).toBe(v1);
    }
    expect(await tagOf('/v2/trades/1', 'X-Pretty-Print', 'true')).not.toBe(v1);
  });

  it('after a write the next GET is 200 with a new tag', async () => {
    const before = await api.get('/v1/orders/2').expect(200);
    await api.patch('/v1/orders/2', { quantity: 99 }).expect(200);
    const after = await api.get('/v1/orders/2').set('If-None-Match', headerOf(before, 'etag')).expect(200);
    expect(headerOf(after, 'etag')).not.toBe(headerOf(before, 'etag'));
  });

  it('a 304 never replaces an error', async () => {
    await api.get('/v1/orders/999').set('If-None-Match', '*').expect(404);
  });

  it('If-Match: a stale tag gets 412 and nothing is written; a current one writes; none is allowed', async () => {
    const current = await api.get('/v1/orders/3').expect(200);
    await api.patch('/v1/orders/3', { item: 'changed' }).expect(200);
    const stale = await api
      .put('/v1/orders/3', { item: 'lost update', quantity: 1 })
      .set('If-Match', headerOf(current, 'etag'))
      .expect(412);
    expect(stale.body.errors[0].code).toBe('precondition_failed');
    await api.delete('/v1/orders/3').set('If-Match', headerOf(current, 'etag')).expect(412);
    expect((await api.get('/v1/orders/3').expect(200)).body.item).toBe('changed');
    const fresh = await api.get('/v1/orders/3').expect(200);
    await api.patch('/v1/orders/3', { quantity: 7 }).set('If-Match', headerOf(fresh, 'etag')).expect(200);
    await api.patch('/v1/orders/3', { quantity: 8 }).expect(200);
  });

  it('two clients racing a PUT with the same If-Match: exactly one succeeds', async () => {
    await raceIfMatch(
      api,
      '/v1/orders/4',
      [
        { item: 'first', quantity: 1 },
        { item: 'second', quantity: 1 },
      ],
      'put',
    );
  });

  it('Last-Modified is ISO 8601 UTC; If-Modified-Since works in ISO 8601 and HTTP-date form', async () => {
    const response = await api.get('/v1/orders/5').expect(200);
    const lastModified = headerOf(response, 'last-modified');
    expect(lastModified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    await api.get('/v1/orders/5').set('If-Modified-Since', lastModified).expect(304);
    await api.get('/v1/orders/5').set('If-Modified-Since', new Date(lastModified).toUTCString()).expect(304);
    await api.get('/v1/orders/5').set('If-Modified-Since', '2000-01-01T00:00:00Z').expect(200);
  });

  it('Vary names every representation-changing header; Cache-Control fits authenticated data', async () => {
    const response = await api.get('/v1/orders/1').expect(200);
    const vary = headerOf(response, 'vary')
      .split(',')
      .map((name: string) => name.trim().toLowerCase());
    for (const header of ['accept-encoding', 'x-result-fields', 'x-expansion-fields', 'authorization'])
      expect(vary).toContain(header);
    expect(response.headers['cache-control']).toBe('private, no-cache');
  });

  it('pretty JSON by default with X-Pretty-Print: true; false gets compact JSON', async () => {
    const pretty = await api.get('/v1/orders/1').expect(200);
    expect(pretty.headers['x-pretty-print']).toBe('true');
    expect(pretty.text).toContain('\n  "order_id": 1');
    const compact = await api.get('/v1/orders/1').set('X-Pretty-Print', 'false').expect(200);
    expect(compact.headers['x-pretty-print']).toBe('false');
    expect(compact.text).not.toContain('\n');
  });

  it('gzip when Accept-Encoding allows and the body is large; never on 204 or 304', async () => {
    const zipped = await api.get('/v1/orders').set('Accept-Encoding', 'gzip').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const small = await api
      .get('/v1/orders/1')
      .set('Accept-Encoding', 'gzip')
      .set('X-Pretty-Print', 'false')
      .expect(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    const created = await api.post('/v1/orders', { item: 'to delete', quantity: 1 }).expect(201);
    const deleted = await api.delete(`/v1/orders/${created.body.identity}`).set('Accept-Encoding', 'gzip').expect(204);
    expect(deleted.headers['content-encoding']).toBeUndefined();
    const revalidated = await api
      .get('/v1/orders')
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', headerOf(zipped, 'etag'))
      .expect(304);
    expect(revalidated.headers['content-encoding']).toBeUndefined();
  });

  it('Server is rewritten to the configured value; nosniff is always sent', async () => {
    const response = await api.get('/v1/orders/1').expect(200);
    expect(response.headers.server).toBe('example-api');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
});
