import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '../../../runtime/http/index.ts';
import { familyRouters, type Route } from '../../../runtime/routing/index.ts';

const routes: Route[] = [
  {
    method: 'GET',
    path: '/v1/orders',
    family: 'resource',
    handle: (ctx) => void (ctx.body = [{ family: ctx.state.route.family }]),
  },
  { method: 'POST', path: '/v1/orders', family: 'resource', handle: (ctx) => void (ctx.status = 201) },
  { method: 'GET', path: '/services/v1/search', family: 'service', handle: (ctx) => void (ctx.body = { ok: true }) },
  {
    method: 'PUT',
    path: '/settings/v1/gui/lang',
    family: 'setting',
    handle: (ctx) => void (ctx.body = { lang: 'fr' }),
  },
];

function app(before: Parameters<typeof familyRouters>[0]['before'] = {}) {
  const koa = new Koa();
  koa.use(errorHandler());
  koa.use(familyRouters({ routes, before }));
  return koa.callback();
}

describe('familyRouters and dispatch', () => {
  it('serves a route and leaves the match on ctx.state.route', async () => {
    const response = await request(app()).get('/v1/orders').expect(200);
    expect(response.body).toEqual([{ family: 'resource' }]);
  });

  it('answers 404 with the error body for an unknown path', async () => {
    const response = await request(app()).get('/v1/nothing').expect(404);
    expect(response.body.errors[0].code).toBe('path_not_found');
  });

  it('answers 405 with Allow for another method, and 204 with Allow for OPTIONS', async () => {
    const response = await request(app()).delete('/v1/orders').expect(405);
    expect(response.headers.allow).toBe('GET, POST, HEAD, OPTIONS');
    expect(response.body.errors[0].code).toBe('method_not_allowed');
    const options = await request(app()).options('/v1/orders').expect(204);
    expect(options.headers.allow).toBe('GET, POST, HEAD, OPTIONS');
  });

  it('runs family middleware only for its own family', async () => {
    const seen: string[] = [];
    const mark = (name: string) => async (_ctx: Koa.Context, next: Koa.Next) => {
      seen.push(name);
      await next();
    };
    const served = app({ resource: [mark('resource')], service: [mark('service')], setting: [mark('setting')] });
    await request(served).get('/v1/orders').expect(200);
    await request(served).get('/services/v1/search').expect(200);
    await request(served).put('/settings/v1/gui/lang').expect(200);
    expect(seen).toEqual(['resource', 'service', 'setting']);
  });
});
