import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ERROR_ENTRIES } from '../../../runtime/index.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { headerOf } from '../../support/header-of.ts';

/**
 * Inputs that used to answer 500 or a huge error on the generated server (issue 18's probes, cases
 * 2, 3, 4 and 7): each now gets the conventions' error body with a precise code, and nothing is written.
 */
describe('bad input gets the error body, never a 500 or a stall', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  /** Sends the bytes exactly as given (supertest would serialise a Buffer as JSON). */
  const postBytes = async (bytes: Buffer | string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${api.url}/v1/orders`, { method: 'POST', headers: { ...api.headers, 'Content-Type': 'application/json', ...headers }, body: bytes });
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
    const response = await api.raw().post('/v1/orders').set(api.headers).set('Content-Type', `application/json; charset=${charset}`).send('{"item":"a","quantity":1}');
    expect(response.status).toBe(415);
    expect(response.body.errors[0].code).toBe('unsupported_charset');
  });

  it('Accept-Encoding: identity;q=0 on a large list: 406 with the error body, not a plain-text 500', async () => {
    for (let index = 0; index < 30; index += 1) await api.post('/v1/orders', { item: `filler ${index}`, quantity: 1 }).expect(201);
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
    expect(errors.at(-1)).toEqual({ code: 'more_errors', message: `${80_000 - MAX_ERROR_ENTRIES} more errors of this request left out` });
    expect(response.text.length).toBeLessThan(10_000);
  });
});
