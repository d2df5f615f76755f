import Koa, { type Context } from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cacheHeaders } from '../../../runtime/caching/index.ts';
import { badRequest } from '../../../runtime/errors/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';
import {
  compression,
  conventionalResponse,
  jsonResponse,
  LAST_MODIFIED_STATE,
  serverHeaders,
} from '../../../runtime/responses/index.ts';
import { sequence } from '../../../runtime/fast-path/sequence.ts';

type Handler = (ctx: Context) => unknown;

const options = { server: 'orders-api', poweredBy: 'toolkit', thresholdBytes: 200 } as const;

/** The five response middlewares mounted one by one, as a Koa app would without conventionalResponse(). */
function separately(handler: Handler, reported: unknown[]) {
  const app = new Koa();
  app.use(serverHeaders(options));
  app.use(cacheHeaders());
  app.use(compression(options));
  app.use(jsonResponse());
  app.use(errorHandler({ report: (error) => reported.push(error.status) }));
  app.use(handler);
  return app.callback();
}

/** The same, as one layer in a sequence. */
function together(handler: Handler, reported: unknown[]) {
  const app = new Koa();
  app.use(sequence([conventionalResponse({ ...options, report: (error) => reported.push(error.status) }), handler]));
  return app.callback();
}

const large = Array.from({ length: 30 }, (_, index) => ({ order_id: index, item: 'apples' }));
const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 2));

const handlers: Record<string, Handler> = {
  'a synchronous object': (ctx) => {
    ctx.state[LAST_MODIFIED_STATE] = '2026-11-22T15:40:00Z';
    ctx.body = { order_id: 1, item: 'apples' };
  },
  'an asynchronous list over the threshold': async (ctx) => {
    ctx.body = await later(large);
  },
  'a created resource': (ctx) => {
    ctx.status = 201;
    ctx.set('Location', '/v1/orders/7');
    ctx.body = { uri: '/v1/orders/7' };
  },
  'an ApiError thrown synchronously': () => {
    throw badRequest('invalid_query', 'limit must be a number', { field: 'limit' });
  },
  'an ApiError thrown later': async () => {
    await later(undefined);
    throw badRequest('invalid_query', 'offset must be a number', { field: 'offset' });
  },
  'a bug': () => {
    throw new Error('internal detail');
  },
  'no content': (ctx) => {
    ctx.status = 204;
  },
};

const requests: Record<string, Record<string, string>> = {
  plain: {},
  gzip: { 'Accept-Encoding': 'gzip' },
  compact: { 'X-Pretty-Print': 'false' },
  'bad pretty print': { 'X-Pretty-Print': 'maybe' },
  'modified since': { 'If-Modified-Since': '2026-11-22T16:00:00Z' },
};

async function answer(
  served: ReturnType<typeof together>,
  method: 'get' | 'post',
  headers: Record<string, string>,
  etag?: string,
) {
  let call = request(served)
    [method]('/')
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks).toString('base64')));
    });
  for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
  if (etag !== undefined) call = call.set('If-None-Match', etag);
  const response = await call;
  const { date: _date, ...sent } = response.headers;
  return { status: response.status, headers: sent, body: response.body as string };
}

describe('conventionalResponse()', () => {
  for (const [handlerName, handler] of Object.entries(handlers)) {
    it(`answers ${handlerName} byte for byte as the five separate middlewares do`, async () => {
      const reportedApart: unknown[] = [];
      const reportedTogether: unknown[] = [];
      const apart = separately(handler, reportedApart);
      const joined = together(handler, reportedTogether);
      for (const method of ['get', 'post'] as const) {
        for (const headers of Object.values(requests)) {
          const expected = await answer(apart, method, headers);
          expect(await answer(joined, method, headers)).toEqual(expected);
          // Revalidating with the tag just sent (a 304 for a GET that carried one).
          const tag = expected.headers.etag as string | undefined;
          if (tag !== undefined)
            expect(await answer(joined, method, headers, tag)).toEqual(await answer(apart, method, headers, tag));
        }
      }
      expect(reportedTogether).toEqual(reportedApart);
    });
  }

  it('answers a synchronous GET with every convention, and revalidates it with 304', async () => {
    const served = together(handlers['a synchronous object']!, []);
    const first = await request(served).get('/').expect(200);
    expect(first.headers).toMatchObject({
      server: 'orders-api',
      'x-powered-by': 'toolkit',
      'x-content-type-options': 'nosniff',
      'content-type': 'application/json;charset=UTF-8',
      'x-pretty-print': 'true',
      'last-modified': '2026-11-22T15:40:00Z',
      'cache-control': 'private, no-cache',
    });
    expect(first.headers['e-tag']).toBe(first.headers.etag);
    expect(first.text).toBe('{\n  "order_id": 1,\n  "item": "apples"\n}\n');
    const again = await request(served).get('/').set('If-None-Match', first.headers.etag!).expect(304);
    expect(again.text).toBe('');
  });
});
