import Koa, { type Context } from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { directContextAccessors } from '../../../runtime/server/index.ts';

/** What a middleware saw and did through the context's accessors, as the response reports it. */
function recordingApp(direct: boolean): Koa {
  const app = new Koa();
  if (direct) directContextAccessors(app);
  app.use((ctx: Context) => {
    const seen: Record<string, unknown> = {
      method: ctx.method,
      path: ctx.path,
      querystring: ctx.querystring,
      status: ctx.status,
      body: ctx.body ?? null,
      length: ctx.length ?? null,
      headerSent: ctx.headerSent,
      writable: ctx.writable,
    };
    // Every accessor written through the context, then read back.
    ctx.method = 'POST';
    ctx.path = '/elsewhere';
    ctx.querystring = 'a=1&b=2';
    ctx.status = 201;
    ctx.body = 'draft';
    ctx.length = 5;
    seen.written = {
      method: ctx.method,
      path: ctx.path,
      querystring: ctx.querystring,
      query: ctx.query,
      url: ctx.url,
      status: ctx.status,
      body: ctx.body,
      length: ctx.length,
    };
    // The body and status a response ends with, set the usual way.
    ctx.status = 200;
    ctx.body = seen;
  });
  return app;
}

describe('directContextAccessors', () => {
  it('reads and writes what Koa’s own delegation reads and writes', async () => {
    const answer = (direct: boolean) =>
      request(recordingApp(direct).callback()).get('/orders/1?limit=2').set('User-Agent', 'test');
    const koa = await answer(false);
    const direct = await answer(true);
    expect(direct.status).toBe(200);
    expect(direct.body).toEqual(koa.body);
    expect(direct.body).toMatchObject({
      method: 'GET',
      path: '/orders/1',
      querystring: 'limit=2',
      status: 404,
      body: null,
      headerSent: false,
      writable: true,
      written: {
        method: 'POST',
        path: '/elsewhere',
        querystring: 'a=1&b=2',
        query: { a: '1', b: '2' },
        url: '/elsewhere?a=1&b=2',
        status: 201,
        body: 'draft',
        length: 5,
      },
    });
  });

  it('gives the app’s context accessors of its own and leaves every other app’s as Koa made it', () => {
    const app = new Koa();
    const other = new Koa();
    directContextAccessors(app);
    directContextAccessors(app);
    for (const name of ['method', 'path', 'querystring', 'status', 'body', 'length', 'headerSent', 'writable']) {
      const own = Object.getOwnPropertyDescriptor(app.context, name);
      expect(own?.get, name).toBeTypeOf('function');
      expect(own?.enumerable, name).toBe(true);
      expect(Object.getOwnPropertyDescriptor(other.context, name), name).toBeUndefined();
    }
  });

  it('sets Content-Length through the response’s length as Koa does: numbers, text, a list of one, Transfer-Encoding, once sent', async () => {
    const lengthApp = (direct: boolean) => {
      const app = new Koa();
      if (direct) directContextAccessors(app);
      app.use((ctx: Context) => {
        const steps: unknown[] = [];
        const note = () =>
          steps.push([ctx.response.get('Content-Length'), ctx.res.hasHeader('Content-Length'), ctx.length ?? null]);
        ctx.body = 'héllo';
        note();
        ctx.length = 7;
        note();
        ctx.response.length = '9' as unknown as number;
        note();
        ctx.length = [3] as unknown as number;
        note();
        ctx.set('Transfer-Encoding', 'chunked');
        ctx.remove('Content-Length');
        ctx.length = 5;
        note();
        ctx.remove('Transfer-Encoding');
        ctx.status = 200;
        ctx.body = JSON.stringify(steps);
        // Sent: a later length changes nothing and throws nothing.
        ctx.res.flushHeaders();
        ctx.length = 1;
      });
      return app;
    };
    const answer = async (direct: boolean) => {
      const response = await request(lengthApp(direct).callback()).get('/').set('User-Agent', 'test');
      return { status: response.status, length: response.headers['content-length'], text: response.text };
    };
    const koa = await answer(false);
    const direct = await answer(true);
    expect(direct).toEqual(koa);
    expect(JSON.parse(direct.text)).toEqual([
      [6, true, 6],
      [7, true, 7],
      ['9', true, 9],
      [3, true, 3],
      [null, false, 6],
    ]);
    const app = new Koa();
    directContextAccessors(app);
    expect(Object.getOwnPropertyDescriptor(app.response, 'length')?.set).toBeTypeOf('function');
    expect(Object.getOwnPropertyDescriptor(new Koa().response, 'length')).toBeUndefined();
  });

  it('keeps an accessor the app defined on its context itself', async () => {
    const app = new Koa();
    Object.defineProperty(app.context, 'path', { get: () => '/as-the-app-says', configurable: true, enumerable: true });
    directContextAccessors(app);
    app.use((ctx: Context) => {
      ctx.body = { path: ctx.path, method: ctx.method };
    });
    const answer = await request(app.callback()).get('/orders/1');
    expect(answer.body).toEqual({ path: '/as-the-app-says', method: 'GET' });
    expect(Object.getOwnPropertyDescriptor(app.context, 'method')?.get).toBeTypeOf('function');
  });
});
