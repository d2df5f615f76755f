import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '../../../runtime/http/index.ts';
import { negotiateJson } from '../../../runtime/http/index.ts';
import { compression, jsonResponse } from '../../../runtime/responses/index.ts';

const SMALL = { a: 1 };
const LARGE = Array.from({ length: 200 }, (_, index) => ({ order_id: index, item: 'apples' }));

/** compression, jsonResponse and the error renderer outside negotiateJson, as the generated server mounts them. */
function app(body: unknown) {
  const reached: string[] = [];
  const koa = new Koa();
  koa.use(compression());
  koa.use(jsonResponse());
  koa.use(errorHandler());
  koa.use(negotiateJson());
  koa.use((ctx) => {
    reached.push(ctx.path);
    ctx.body = body;
  });
  return { served: koa.callback(), reached };
}

describe('Accept-Encoding: a response the client can read, or 406 before any work', () => {
  it.each([
    ['identity;q=0', LARGE],
    ['identity;q=0', SMALL],
    ['*;q=0', LARGE],
    ['br;q=1, identity;q=0', SMALL],
    ['gzip;q=0, identity;q=0', LARGE],
  ])('answers %s, which refuses gzip and identity alike, with 406 and the error body', async (header, body) => {
    const { served, reached } = app(body);
    const response = await request(served).get('/').set('Accept-Encoding', header);
    expect(response.status).toBe(406);
    expect(response.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.errors[0]).toMatchObject({ code: 'not_acceptable' });
    expect(reached).toEqual([]);
  });

  it.each([
    ['gzip, identity;q=0', SMALL],
    ['gzip, identity;q=0', LARGE],
    ['gzip;q=0.5, *;q=0', SMALL],
  ])('gzips any body, however small, for %s', async (header, body) => {
    const response = await request(app(body).served).get('/').set('Accept-Encoding', header).expect(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.body).toEqual(body);
  });

  it.each([['identity'], ['gzip;q=0'], ['br'], ['']])('sends a small body unencoded for %j', async (header) => {
    const response = await request(app(SMALL).served).get('/').set('Accept-Encoding', header).expect(200);
    expect(response.headers['content-encoding']).toBeUndefined();
  });
});
