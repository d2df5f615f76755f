import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cacheHeaders, DEFAULT_VARY, type CacheHeadersOptions } from '../../../runtime/caching/index.ts';

/** An app answering `status` to every request behind cacheHeaders(options); `vary` is a header a handler names itself. */
function app(status: number, options?: CacheHeadersOptions, vary?: string) {
  const koa = new Koa();
  if (vary !== undefined)
    koa.use(async (ctx, next) => {
      ctx.set('Vary', vary);
      await next();
    });
  koa.use(cacheHeaders(options));
  koa.use((ctx) => {
    ctx.status = status;
    if (status === 200) ctx.body = { ok: true };
  });
  return koa.callback();
}

describe('cacheHeaders(): what caches may do with a response', () => {
  it.each([
    ['GET', 200],
    ['HEAD', 200],
    ['GET', 304],
  ])('%s answered %i: private, revalidated with the tag each time', async (method, status) => {
    const response = await request(app(status))[method === 'GET' ? 'get' : 'head']('/');
    expect(response.status).toBe(status);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers.vary).toBe(DEFAULT_VARY.join(', '));
  });

  it.each([
    ['GET', 404],
    ['GET', 201],
    ['POST', 200],
    ['PUT', 200],
    ['DELETE', 304],
  ])('%s answered %i: no-store', async (method, status) => {
    const response = await request(app(status))[method.toLowerCase() as 'get'](`/`);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.vary).toBe(DEFAULT_VARY.join(', '));
  });

  it('its own Cache-Control and Vary list when given', async () => {
    const response = await request(
      app(200, { cacheControl: 'private, max-age=0, must-revalidate', vary: ['Accept', 'Authorization'] }),
    ).get('/');
    expect(response.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    expect(response.headers.vary).toBe('Accept, Authorization');
  });

  it('a Vary named before it is kept, with its own list merged in', async () => {
    const response = await request(app(200, { vary: ['Accept-Encoding', 'Authorization'] }, 'Origin')).get('/');
    expect(response.headers.vary).toBe('Origin, Accept-Encoding, Authorization');
  });
});
