import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ERROR_ENTRIES, MAX_SEARCH_TERMS } from '../../../runtime/index.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { headerOf } from '../../support/header-of.ts';
import { sendRaw } from '../../reliability/support/raw-http.ts';

/**
 * Inputs that used to answer 500 or a huge error on the generated server: each now gets the conventions' error body with a precise code, and nothing is written.
 */
describe('bad input gets the error body, never a 500 or a stall', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  /** Sends the bytes exactly as given (supertest would serialise a Buffer as JSON). */
  const postBytes = async (bytes: Buffer | string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${api.url}/v1/orders`, {
      method: 'POST',
      headers: { ...api.headers, 'Content-Type': 'application/json', ...headers },
      body: bytes,
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const codeOf = (text: string) => (JSON.parse(text) as { errors: Array<{ code: string }> }).errors[0]?.code;

  const count = async () => Number(headerOf(await api.get('/v1/orders').expect(200), 'x-total-count'));

  it('a JSON body labelled gzip: 400 malformed_body, not 500', async () => {
    const before = await count();
    const response = await postBytes('{"item":"a","quantity":1}', { 'Content-Encoding': 'gzip' });
    expect(response.status).toBe(400);
    expect(codeOf(response.text)).toBe('malformed_body');
    expect(await count()).toBe(before);
  });

  it('a gzipped body is decoded and written', async () => {
    const response = await postBytes(gzipSync('{"item":"zipped","quantity":2}'), { 'Content-Encoding': 'gzip' });
    expect(response.status).toBe(201);
    const { uri } = JSON.parse(response.text) as { uri: string };
    expect((await api.get(new URL(uri).pathname).expect(200)).body).toMatchObject({ item: 'zipped', quantity: 2 });
  });

  it('invalid UTF-8 is refused, not stored as U+FFFD', async () => {
    const before = await count();
    const bytes = Buffer.concat([Buffer.from('{"item":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('","quantity":1}')]);
    const response = await postBytes(bytes);
    expect(response.status).toBe(400);
    expect(codeOf(response.text)).toBe('invalid_utf8');
    expect(await count()).toBe(before);
  });

  it.each([['latin1'], ['nope']])('charset=%s is refused with 415', async (charset) => {
    const response = await api
      .raw()
      .post('/v1/orders')
      .set(api.headers)
      .set('Content-Type', `application/json; charset=${charset}`)
      .send('{"item":"a","quantity":1}');
    expect(response.status).toBe(415);
    expect(response.body.errors[0].code).toBe('unsupported_charset');
  });

  it('Accept-Encoding: identity;q=0 on a large list: 406 with the error body, not a plain-text 500', async () => {
    for (let index = 0; index < 30; index += 1)
      await api.post('/v1/orders', { item: `filler ${index}`, quantity: 1 }).expect(201);
    const response = await api.raw().get('/v1/orders').set(api.headers).set('Accept-Encoding', 'identity;q=0');
    expect(response.status).toBe(406);
    expect(headerOf(response, 'content-type')).toBe('application/json;charset=UTF-8');
    expect(response.body.errors[0].code).toBe('not_acceptable');
  });

  it('80,000 unknown members: a small 400 listing the first ones and how many more', async () => {
    const members = Array.from({ length: 80_000 }, (_, index) => `"k${index}":1`).join(',');
    const body = `{"item":"a","quantity":1,${members}}`;
    expect(body.length).toBeLessThan(1024 * 1024);
    const response = await postBytes(body);
    expect(response.status).toBe(400);
    const errors = (JSON.parse(response.text) as { errors: Array<{ code: string; message: string }> }).errors;
    expect(errors).toHaveLength(MAX_ERROR_ENTRIES + 1);
    expect(errors.slice(0, MAX_ERROR_ENTRIES).every((entry) => entry.code === 'unknown_field')).toBe(true);
    expect(errors.at(-1)).toEqual({
      code: 'more_errors',
      message: `${80_000 - MAX_ERROR_ENTRIES} more errors of this request left out`,
    });
    expect(response.text.length).toBeLessThan(10_000);
  });

  it("a reference on another host is refused with 422 naming the field, not read as this API's order 1", async () => {
    const before = Number(headerOf(await api.get('/v1/trades').expect(200), 'x-total-count'));
    const response = await api.post('/v1/trades', {
      trade_name: 'elsewhere',
      order: 'http://evil.example/v1/orders/1',
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ code: 'foreign_reference', field: 'order' });
    // This API's own URI and bare path still work.
    expect((await api.post('/v1/trades', { trade_name: 'here', order: `${api.url}/v1/orders/1` })).status).toBe(201);
    expect((await api.post('/v1/trades', { trade_name: 'path', order: '/v1/orders/1' })).status).toBe(201);
    expect(Number(headerOf(await api.get('/v1/trades').expect(200), 'x-total-count'))).toBe(before + 2);
  });

  it.each([['constructor'], ['toString'], ['hasOwnProperty'], ['__defineGetter__'], ['valueOf']])(
    'a member named %s is an unknown_field on POST and PATCH, like any other',
    async (name) => {
      const created = await api.post('/v1/orders', { item: 'a', quantity: 1, [name]: 'x' });
      expect(created.status).toBe(400);
      expect(created.body.errors[0]).toMatchObject({ code: 'unknown_field', field: name });
      const patched = await api.patch('/v1/orders/1', { [name]: 'x' });
      expect(patched.status).toBe(400);
      expect(patched.body.errors[0]).toMatchObject({ code: 'unknown_field', field: name });
    },
  );

  it('two Authorization headers: 400 duplicate_header, whichever comes first', async () => {
    const response = await sendRaw(api.url, {
      method: 'GET',
      path: '/v1/orders',
      headers: { 'User-Agent': 'dup', Authorization: [api.headers.Authorization!, 'Bearer someone-else'] },
    });
    const status = { status: response.status, body: response.body.toString('utf8') };
    expect(status.status).toBe(400);
    expect(JSON.parse(status.body).errors[0]).toMatchObject({ code: 'duplicate_header', field: 'Authorization' });
    expect((await api.get('/v1/orders')).status).toBe(200);
  });

  describe('search has a work budget', () => {
    const search = (q: string) => api.get(`/services/v1/search?category=orders&q=${encodeURIComponent(q)}`);

    it(`more than ${MAX_SEARCH_TERMS} distinct words: 400 too_many_terms naming q, before any query runs`, async () => {
      const words = Array.from({ length: 300 }, (_, index) => `w${index}`).join(' ');
      const response = await search(words);
      expect(response.status).toBe(400);
      expect(response.body.errors[0]).toMatchObject({ code: 'too_many_terms', field: 'q' });
    });

    it('a word repeated 3,000 times is one term', async () => {
      const response = await search(Array.from({ length: 3000 }, () => 'f').join(' '));
      expect(response.status).toBe(200);
      expect(response.body.length).toBeGreaterThan(0);
    });

    it(`${MAX_SEARCH_TERMS} distinct words are still a search`, async () => {
      expect((await search(Array.from({ length: MAX_SEARCH_TERMS }, (_, index) => `w${index}`).join(' '))).status).toBe(
        200,
      );
    });

    it('a q with no letters or digits: 400 invalid_parameter', async () => {
      const response = await search('!!! ??? ...');
      expect(response.status).toBe(400);
      expect(response.body.errors[0]).toMatchObject({ code: 'invalid_parameter', field: 'q' });
    });
  });
});
