import Koa, { type Context, type Next } from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { badRequest } from '../../../runtime/errors/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';
import { sequence, SETTLED } from '../../../runtime/fast-path/sequence.ts';

const serve = (middleware: Koa.Middleware) => {
  const app = new Koa();
  app.use(errorHandler());
  app.use(middleware);
  app.use((ctx) => {
    ctx.body = { reached: 'after the sequence' };
  });
  return app.callback();
};

describe('sequence()', () => {
  it('runs layers in order, with work after next() in reverse, and hands SETTLED back when the rest was synchronous', async () => {
    const seen: string[] = [];
    const results: unknown[] = [];
    const wrapper = (name: string) => (_ctx: Context, next: Next) => {
      seen.push(`${name} in`);
      const result = next();
      results.push(result);
      seen.push(`${name} out`);
      return result;
    };
    const handler = (ctx: Context) => {
      seen.push('handler');
      ctx.body = { ok: true };
    };
    const response = await request(serve(sequence([wrapper('outer'), wrapper('inner'), handler])))
      .get('/')
      .expect(200);
    expect(response.body).toEqual({ ok: true });
    expect(seen).toEqual(['outer in', 'inner in', 'handler', 'inner out', 'outer out']);
    // Both layers saw the rest finish synchronously: no promise was made for them.
    expect(results).toEqual([SETTLED, SETTLED]);
  });

  it('waits for an asynchronous layer, and await next() works in any layer', async () => {
    const seen: string[] = [];
    const app = sequence([
      async (_ctx: Context, next: Next) => {
        await next();
        seen.push('outer after');
      },
      async (ctx: Context) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push('handler');
        ctx.body = { late: true };
      },
    ]);
    const response = await request(serve(app)).get('/').expect(200);
    expect(response.body).toEqual({ late: true });
    expect(seen).toEqual(['handler', 'outer after']);
  });

  it('calls the next middleware of the app after its last layer, and turns a synchronous throw into a rejection', async () => {
    const passing = await request(serve(sequence([(_ctx: Context, next: Next) => next()])))
      .get('/')
      .expect(200);
    expect(passing.body).toEqual({ reached: 'after the sequence' });
    const throwing = sequence([
      () => {
        throw badRequest('invalid_query', 'nope', { field: 'q' });
      },
    ]);
    await expect(throwing({} as Context, () => Promise.resolve())).rejects.toMatchObject({
      status: 400,
      code: 'invalid_query',
    });
    const refused = await request(serve(throwing)).get('/').expect(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'invalid_query', field: 'q' });
  });
});
