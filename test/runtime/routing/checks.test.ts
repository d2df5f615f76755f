import Koa, { type Context, type Next } from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { badRequest } from '../../../runtime/errors/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';
import { checks } from '../../../runtime/routing/index.ts';

const serve = (middleware: Koa.Middleware, seen: string[]) => {
  const app = new Koa();
  app.use(errorHandler());
  app.use(middleware);
  app.use((ctx) => {
    seen.push('handler');
    ctx.body = { ok: true };
  });
  return app.callback();
};

const sync = (name: string, seen: string[]) => (_ctx: Context, next: Next) => {
  seen.push(name);
  return next();
};
const later = (name: string, seen: string[]) => async (_ctx: Context, next: Next) => {
  await new Promise((resolve) => setTimeout(resolve, 5));
  seen.push(name);
  await next();
};

describe('checks()', () => {
  it('runs synchronous and asynchronous checks in order, then the rest of the chain once', async () => {
    const seen: string[] = [];
    await request(serve(checks([sync('a', seen), later('b', seen), sync('c', seen)]), seen))
      .get('/')
      .expect(200, { ok: true });
    expect(seen).toEqual(['a', 'b', 'c', 'handler']);
  });

  it('stops at a check that throws or rejects, and the error reaches the error handler', async () => {
    for (const failing of [
      () => {
        throw badRequest('bad_one', 'sync');
      },
      async () => {
        throw badRequest('bad_one', 'async');
      },
    ]) {
      const seen: string[] = [];
      const response = await request(serve(checks([sync('a', seen), failing, sync('c', seen)]), seen))
        .get('/')
        .expect(400);
      expect(response.body.errors[0].code).toBe('bad_one');
      expect(seen).toEqual(['a']);
    }
  });

  it('stops, without an error, at a check that answers itself and does not call next()', async () => {
    for (const answering of [
      (ctx: Context) => {
        ctx.status = 204;
      },
      async (ctx: Context) => {
        ctx.status = 204;
      },
    ]) {
      const seen: string[] = [];
      await request(serve(checks([sync('a', seen), answering, sync('c', seen)]), seen))
        .get('/')
        .expect(204);
      expect(seen).toEqual(['a']);
    }
  });

  it('keeps concurrent requests apart', async () => {
    const seen: string[] = [];
    const app = serve(checks([later('x', seen), sync('y', seen)]), seen);
    await Promise.all(Array.from({ length: 5 }, () => request(app).get('/').expect(200)));
    expect(seen.filter((name) => name === 'handler')).toHaveLength(5);
    expect(seen.filter((name) => name === 'y')).toHaveLength(5);
  });
});
