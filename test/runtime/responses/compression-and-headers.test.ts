import { get, createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import Koa from 'koa';
import compress from 'koa-compress';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cacheHeaders } from '../../../runtime/caching/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';
import { compression, jsonResponse, serverHeaders } from '../../../runtime/responses/index.ts';
import { headerOf } from '../../support/header-of.ts';

function app(body: unknown, status = 200, options: Parameters<typeof serverHeaders>[0] = {}) {
  const koa = new Koa();
  koa.use(serverHeaders(options));
  koa.use(compression({ thresholdBytes: 100 }));
  koa.use(cacheHeaders());
  koa.use(jsonResponse());
  koa.use(errorHandler());
  koa.use((ctx) => {
    ctx.status = status;
    if (body !== undefined) ctx.body = body;
  });
  return koa.callback();
}

const large = Array.from({ length: 50 }, (_, index) => ({ order_id: index, item: 'apples' }));

/** The status, headers and raw bytes (never decoded) of one GET to `listener`. */
async function rawGet(listener: RequestListener, headers: Record<string, string>) {
  const server = createServer(listener).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await new Promise<{ response: IncomingMessage; bytes: Buffer }>((resolve, reject) => {
      get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ response, bytes: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  } finally {
    server.close();
  }
}

describe('compression', () => {
  it('gzips the JSON text at once, sent with its Content-Length, no larger than koa-compress makes it', async () => {
    const ours = await rawGet(app(large), { 'Accept-Encoding': 'gzip' });
    expect(ours.response.headers['content-encoding']).toBe('gzip');
    expect(ours.response.headers['content-length']).toBe(String(ours.bytes.length));
    const text = gunzipSync(ours.bytes).toString('utf8');
    expect(JSON.parse(text)).toEqual(large);
    // koa-compress alone, on the same text and type.
    const plain = new Koa();
    plain.use(compress({ threshold: 100 }));
    plain.use((ctx) => {
      ctx.type = 'application/json;charset=UTF-8';
      ctx.body = text;
    });
    const theirs = await rawGet(plain.callback(), { 'Accept-Encoding': 'gzip' });
    expect(theirs.response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(theirs.bytes).toString('utf8')).toBe(text);
    expect(ours.bytes.length).toBeLessThanOrEqual(theirs.bytes.length);
  });

  it.each([
    ['gzip', 'gzip'],
    ['*', 'gzip'],
    ['gzip, identity', 'gzip'],
    ['gzip;q=0.5, identity', undefined],
    ['identity', undefined],
    ['br', undefined],
  ])(
    'Accept-Encoding %s: a large JSON body goes as %s, as koa-compress negotiates it',
    async (acceptEncoding, encoding) => {
      const { response, bytes } = await rawGet(app(large), { 'Accept-Encoding': acceptEncoding });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse((encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8'))).toEqual(large);
    },
  );

  it('gzips a body over the threshold when Accept-Encoding allows, with a -gzip tag that still revalidates', async () => {
    const served = app(large);
    const zipped = await request(served).get('/').set('Accept-Encoding', 'gzip').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.body).toHaveLength(50);
    expect(headerOf(zipped, 'etag')).toMatch(/-gzip"$/);
    const revalidated = await request(served)
      .get('/')
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', headerOf(zipped, 'etag'))
      .expect(304);
    expect(headerOf(revalidated, 'etag')).toBe(headerOf(zipped, 'etag'));
    const plain = await request(served).get('/').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(`${headerOf(plain, 'etag').slice(0, -1)}-gzip"`).toBe(headerOf(zipped, 'etag'));
  });

  it('sends a large body as it is to a request without Accept-Encoding, with Vary naming it and the tag of the unencoded bytes', async () => {
    // node:http's client sends no Accept-Encoding unless told to (supertest always sends one).
    const server = createServer(app(large)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const fetchRaw = (headers: Record<string, string> = {}) =>
      new Promise<{ response: IncomingMessage; body: string }>((resolve, reject) => {
        get(url, { headers }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ response, body }));
        }).on('error', reject);
      });
    try {
      const { response, body } = await fetchRaw();
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(body)).toHaveLength(50);
      expect(response.headers.vary?.split(',').map((name) => name.trim())).toContain('Accept-Encoding');
      const plain = await request(app(large)).get('/').set('Accept-Encoding', 'identity').expect(200);
      expect(response.headers.etag).toBe(headerOf(plain, 'etag'));
      const revalidated = await fetchRaw({ 'If-None-Match': response.headers.etag! });
      expect(revalidated.response.statusCode).toBe(304);
      expect(revalidated.response.headers.etag).toBe(response.headers.etag);
    } finally {
      server.close();
    }
  });

  it('leaves small bodies and bodiless responses alone', async () => {
    const small = await request(app({ a: 1 }))
      .get('/')
      .set('Accept-Encoding', 'gzip')
      .expect(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    const empty = await request(app(undefined, 204)).get('/').set('Accept-Encoding', 'gzip').expect(204);
    expect(empty.headers['content-encoding']).toBeUndefined();
  });
});

describe('serverHeaders and cacheHeaders', () => {
  it('rewrites Server, sends nosniff, and X-Powered-By only when configured', async () => {
    const plain = await request(app({ a: 1 })).get('/');
    expect(plain.headers.server).toBe('conventional-api');
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.headers['x-powered-by']).toBeUndefined();
    const named = await request(app({ a: 1 }, 200, { server: 'orders-api', poweredBy: 'toolkit' })).get('/');
    expect(named.headers.server).toBe('orders-api');
    expect(named.headers['x-powered-by']).toBe('toolkit');
  });

  it('names every representation-changing header in Vary and marks GETs private, revalidate', async () => {
    const response = await request(app({ a: 1 })).get('/');
    const vary = headerOf(response, 'vary')
      .split(',')
      .map((name: string) => name.trim());
    expect(vary).toEqual(
      expect.arrayContaining([
        'Accept-Encoding',
        'X-Result-Fields',
        'X-Expansion-Fields',
        'X-Pretty-Print',
        'Authorization',
      ]),
    );
    expect(new Set(vary).size).toBe(vary.length);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const failed = await request(app({ a: 1 }, 404)).get('/');
    expect(failed.headers['cache-control']).toBe('no-store');
  });
});
