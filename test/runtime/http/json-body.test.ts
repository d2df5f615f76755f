import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../../runtime/http/index.ts';
import { jsonBody, requestBody } from '../../../runtime/http/index.ts';

const LIMIT = 64 * 1024;
const ORDER = Buffer.from('{"item":"apple","quantity":3}');

/** A plain Koa app on a loopback port: the error renderer, jsonBody, and a handler that echoes what it was given. */
const reached: unknown[] = [];
let url = '';
let server: ReturnType<Koa['listen']>;

beforeAll(async () => {
  const koa = new Koa();
  koa.use(errorHandler());
  koa.use(jsonBody({ limitBytes: LIMIT }));
  koa.use((ctx) => {
    reached.push(requestBody(ctx));
    ctx.body = { received: requestBody(ctx) };
  });
  server = koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => server.close());

/** POSTs the bytes exactly as given (no client-side serialisation); resolves with status, type and parsed body. */
function post(body: Buffer, headers: Record<string, string>) {
  reached.length = 0;
  const response = fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  }).then(async (answer) => ({
    status: answer.status,
    headers: { 'content-type': answer.headers.get('content-type') },
    body: (await answer.json()) as { errors: Array<{ code: string }>; received?: unknown },
  }));
  return { response, reached };
}

describe('jsonBody: request bodies in every Content-Encoding', () => {
  it.each([
    ['gzip', gzipSync(ORDER)],
    ['x-gzip', gzipSync(ORDER)],
    ['deflate', deflateSync(ORDER)],
    ['br', brotliCompressSync(ORDER)],
    ['identity', ORDER],
    ['GZip ', gzipSync(ORDER)],
  ])('decodes %s', async (coding, bytes) => {
    const { response } = post(bytes, { 'Content-Encoding': coding });
    expect((await response).body).toEqual({ received: { item: 'apple', quantity: 3 } });
  });

  it.each([
    ['plain JSON labelled gzip', 'gzip', ORDER],
    ['a gzip stream cut short', 'gzip', gzipSync(ORDER).subarray(0, 12)],
    ['gzip labelled br', 'br', gzipSync(ORDER)],
    ['garbage labelled deflate', 'deflate', Buffer.from('not deflate at all')],
  ])('answers %s with 400 malformed_body, never reaching the handler', async (_case, coding, bytes) => {
    const { response, reached } = post(bytes, { 'Content-Encoding': coding });
    const answered = await response;
    expect(answered.status).toBe(400);
    expect(answered.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(answered.body.errors).toEqual([
      { code: 'malformed_body', message: `the request body is not valid ${coding} data` },
    ]);
    expect(reached).toEqual([]);
  });

  it('refuses an encoding it cannot decode with 415 unsupported_content_encoding', async () => {
    const answered = await post(ORDER, { 'Content-Encoding': 'compress' }).response;
    expect(answered.status).toBe(415);
    expect(answered.body.errors[0]?.code).toBe('unsupported_content_encoding');
  });

  it('stops a compression bomb at the limit of decoded bytes: 413, without decoding the rest', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(LIMIT);
    const started = performance.now();
    const answered = await post(bomb, { 'Content-Encoding': 'gzip' }).response;
    expect(answered.status).toBe(413);
    expect(answered.body.errors[0]?.code).toBe('payload_too_large');
    // 50 MiB decoded would take far longer than the limit's 64 KiB; this bounds the work, not a speed.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('jsonBody: UTF-8 JSON objects and arrays only', () => {
  it.each([
    ['charset=latin1', 'application/json; charset=latin1'],
    ['charset=nope', 'application/json; charset=nope'],
    ['charset=utf-16', 'application/json; charset=utf-16'],
  ])('refuses %s with 415 unsupported_charset', async (_case, type) => {
    const answered = await post(ORDER, { 'Content-Type': type }).response;
    expect(answered.status).toBe(415);
    expect(answered.body.errors[0]?.code).toBe('unsupported_charset');
  });

  it.each([['UTF-8'], ['utf-8'], ['utf8']])('accepts charset=%s', async (charset) => {
    const answered = await post(ORDER, { 'Content-Type': `application/json; charset=${charset}` }).response;
    expect(answered.status).toBe(200);
  });

  it('refuses invalid UTF-8 with 400 invalid_utf8 instead of storing U+FFFD', async () => {
    const { response, reached } = post(
      Buffer.concat([Buffer.from('{"item":"'), Buffer.from([0xc3, 0x28]), Buffer.from('","quantity":1}')]),
      {},
    );
    const answered = await response;
    expect(answered.status).toBe(400);
    expect(answered.body.errors[0]?.code).toBe('invalid_utf8');
    expect(reached).toEqual([]);
  });

  it('keeps valid multi-byte UTF-8 as it is', async () => {
    const answered = await post(Buffer.from('{"item":"Ærø 東京 🍎"}'), {}).response;
    expect(answered.body).toEqual({ received: { item: 'Ærø 東京 🍎' } });
  });

  it.each([
    ['a number', '42'],
    ['a string', '"apple"'],
    ['broken syntax', '{"item": '],
    ['a __proto__ member', '{"__proto__": {"polluted": true}}'],
  ])('answers %s with 400 malformed_json', async (_case, text) => {
    const answered = await post(Buffer.from(text), {}).response;
    expect(answered.status).toBe(400);
    expect(answered.body.errors[0]?.code).toBe('malformed_json');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('says which of the two a refused body is: broken syntax, or a __proto__ member in well-formed JSON', async () => {
    const broken = (await post(Buffer.from('{"item": '), {}).response).body.errors[0];
    expect(broken).toMatchObject({ code: 'malformed_json', message: 'the request body is not well-formed JSON' });
    expect(broken).not.toHaveProperty('field');
    const proto = (await post(Buffer.from('{"item": "a", "nested": {"__proto__": {}}}'), {}).response).body
      .errors[0] as { code: string; message: string; field?: string };
    expect(proto).toMatchObject({ code: 'malformed_json', field: '__proto__' });
    expect(proto.message).toMatch(/__proto__/);
    expect(proto.message).not.toMatch(/well-formed/);
  });

  it('answers an object naming a member twice with 400 duplicate_member naming it, whichever value would win', async () => {
    const answered = await post(Buffer.from('{"lines": [{"sku": "a", "quantity": 1, "quantity": 100}]}'), {}).response;
    expect(answered.status).toBe(400);
    expect(answered.body.errors).toEqual([
      {
        code: 'duplicate_member',
        field: 'lines[0].quantity',
        message: 'the request body names lines[0].quantity twice in one object; send each member once',
      },
    ]);
  });

  it('answers a body over the limit with 413 payload_too_large', async () => {
    const answered = await post(Buffer.from(`{"item":"${'a'.repeat(LIMIT)}"}`), {}).response;
    expect(answered.status).toBe(413);
  });
});
