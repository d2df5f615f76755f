import Koa, { type Context, type Middleware } from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '../../../runtime/http/index.ts';
import { settledNow, SETTLED } from '../../../runtime/fast-path/sequence.ts';
import {
  checks,
  dispatch,
  familyOfPath,
  familyRouters,
  matchedRoute,
  movedPermanently,
  type Route,
} from '../../../runtime/routing/index.ts';

/** A route answering its own path and the route the dispatcher matched. */
const route = (method: Route['method'], path: string, family: Route['family'], open?: boolean): Route => ({
  method,
  path,
  family,
  ...(open === undefined ? {} : { open }),
  handle: (ctx) => void (ctx.body = { served: `${method} ${path}`, matched: matchedRoute(ctx) }),
});

/** Middleware that notes `name` for every request it sees, then passes it on. */
const noting =
  (name: string, seen: string[]): Middleware =>
  (ctx, next) => {
    seen.push(`${name} ${ctx.path}`);
    return next();
  };

const appOf = (middleware: Middleware) => new Koa().use(errorHandler()).use(middleware).callback();

describe('path families', () => {
  it.each([
    ['/services/v1/search', 'service'],
    ['/services', 'service'],
    ['/servicesx/v1/a', 'resource'],
    ['/settings/v1/theme', 'setting'],
    ['/settings', 'setting'],
    ['/settingsx', 'resource'],
    ['/v1/orders', 'resource'],
  ])('%s is a %s path', (path, family) => {
    expect(familyOfPath(path)).toBe(family);
  });

  it("each family's middleware runs for its own paths only, in the order given, before its routes", async () => {
    const seen: string[] = [];
    const served = appOf(
      familyRouters({
        routes: [
          route('GET', '/v1/orders', 'resource'),
          route('GET', '/services/v1/search', 'service'),
          route('GET', '/settings/v1/theme', 'setting'),
        ],
        before: { service: [noting('service-1', seen), noting('service-2', seen)], setting: [noting('setting', seen)] },
      }),
    );
    await request(served).get('/v1/orders').expect(200);
    await request(served)
      .get('/services/v1/search')
      .expect(200, {
        served: 'GET /services/v1/search',
        matched: { family: 'service', method: 'GET', path: '/services/v1/search', params: {} },
      });
    await request(served).get('/settings/v1/theme').expect(200);
    expect(seen).toEqual([
      'service-1 /services/v1/search',
      'service-2 /services/v1/search',
      'setting /settings/v1/theme',
    ]);
  });

  it("a route is served only under its own family's router", async () => {
    // Declared as a service, at a path of the resource family: no router serves it.
    const served = appOf(
      familyRouters({ routes: [route('GET', '/v1/ping', 'service'), route('GET', '/v1/orders', 'resource')] }),
    );
    await request(served).get('/v1/orders').expect(200);
    await request(served).get('/v1/ping').expect(404);
  });

  it("open routes skip their family's middleware; their other methods and every other route go through it", async () => {
    const seen: string[] = [];
    const served = appOf(
      familyRouters({
        routes: [
          route('GET', '/health', 'resource', true),
          route('POST', '/health', 'resource'),
          route('GET', '/v1/orders', 'resource', false),
        ],
        before: { resource: [noting('limit', seen)] },
      }),
    );
    await request(served).get('/health').expect(200);
    await request(served).head('/health').expect(200);
    await request(served).post('/health').expect(200);
    await request(served).get('/v1/orders').expect(200);
    await request(served).delete('/health').expect(405);
    expect(seen).toEqual(['limit /health', 'limit /v1/orders', 'limit /health']);
  });
});

describe('dispatch()', () => {
  const served = appOf(
    dispatch([route('GET', '/v1/orders/:order_id', 'resource'), route('POST', '/v1/jobs', 'service')]),
  );

  it('leaves the match where middleware and logs read it; HEAD is matched as GET', async () => {
    const response = await request(served).get('/v1/orders/7').expect(200);
    expect(response.body.matched).toEqual({
      family: 'resource',
      method: 'GET',
      path: '/v1/orders/:order_id',
      params: { order_id: '7' },
    });
    await request(served).head('/v1/orders/7').expect(200);
  });

  it('an unknown path, or one that only leads to routes, is a 404 naming it', async () => {
    for (const path of ['/v2/orders', '/v1', '/v1/orders']) {
      const response = await request(served).get(path).expect(404);
      expect(response.body.errors[0]).toEqual({ code: 'path_not_found', message: `no resource or service at ${path}` });
    }
  });

  it('Allow names HEAD only where GET is served', async () => {
    const options = await request(served).options('/v1/jobs').expect(204);
    expect(options.headers.allow).toBe('POST, OPTIONS');
    expect((await request(served).get('/v1/jobs').expect(405)).headers.allow).toBe('POST, OPTIONS');
    expect((await request(served).delete('/v1/orders/1').expect(405)).headers.allow).toBe('GET, HEAD, OPTIONS');
  });
});

describe('movedPermanently()', () => {
  const served = appOf(
    dispatch([
      {
        method: 'GET',
        path: '/v1/purchases',
        family: 'resource',
        handle: movedPermanently('http://api.test', '/v1/purchases', '/v1/orders'),
      },
      {
        method: 'GET',
        path: '/v1/purchases/:order_id',
        family: 'resource',
        handle: movedPermanently('http://api.test', '/v1/purchases', '/v1/orders'),
      },
      {
        method: 'GET',
        path: '/v1/old-report',
        family: 'resource',
        handle: movedPermanently('http://api.test', '/v1/elsewhere', '/v1/report'),
      },
    ]),
  );

  it('301 to the same path under the new prefix, the query string kept, with the link body', async () => {
    const one = await request(served).get('/v1/purchases/5?x=1&y=2').expect(301);
    expect(one.headers.location).toBe('http://api.test/v1/orders/5?x=1&y=2');
    expect(one.body).toEqual({ rel: 'self', href: 'http://api.test/v1/orders/5?x=1&y=2' });
    expect((await request(served).get('/v1/purchases').expect(301)).headers.location).toBe('http://api.test/v1/orders');
  });

  it('a path outside the former prefix goes to the new prefix itself', async () => {
    expect((await request(served).get('/v1/old-report?z=1').expect(301)).headers.location).toBe(
      'http://api.test/v1/report?z=1',
    );
  });
});

describe('settledNow() and checks()', () => {
  it.each([
    ['SETTLED', SETTLED, true],
    ['undefined', undefined, true],
    ['null', null, true],
    ['a value', 42, true],
    ['a promise', Promise.resolve(), false],
    ['a thenable', { then: () => undefined }, false],
  ])('%s: settled now %s', (_name, result, settled) => {
    expect(settledNow(result)).toBe(settled);
  });

  it('runs the checks that pass synchronously one after another at once, without waiting a turn', () => {
    const ran: string[] = [];
    const check =
      (name: string): Middleware =>
      (_ctx, next) => {
        ran.push(name);
        return next();
      };
    const result = checks([check('a'), check('b'), check('c')])({} as Context, () => {
      ran.push('next');
      return SETTLED;
    });
    expect(ran).toEqual(['a', 'b', 'c', 'next']);
    expect(result).toBe(SETTLED);
  });

  it('a check that does not call next stops the sequence, synchronously or not', async () => {
    const ran: string[] = [];
    const stop: Middleware = () => void ran.push('stop');
    const asyncStop: Middleware = async () => void ran.push('async stop');
    const later: Middleware = (_ctx, next) => {
      ran.push('later');
      return next();
    };
    await checks([stop, later])({} as Context, async () => void ran.push('next'));
    await checks([asyncStop, later])({} as Context, async () => void ran.push('next'));
    expect(ran).toEqual(['stop', 'async stop']);
  });
});
