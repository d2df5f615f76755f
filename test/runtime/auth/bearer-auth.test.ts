import Koa, { type Context } from 'koa';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import {
  authenticate,
  authOf,
  bearerAuth,
  requireAuth,
  SqliteTokenStore,
  type AuthenticateOptions,
  type TokenStore,
  type Verification,
} from '../../../runtime/auth/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';
import { IN_MEMORY, openDatabase } from '../../../runtime/storage/index.ts';
import { rawExchange } from '../../support/raw-http.ts';

const storeOf = () => new SqliteTokenStore(openDatabase(IN_MEMORY));

/** An app behind bearerAuth(options) that answers who the request speaks for. */
function appOf(options: AuthenticateOptions) {
  const koa = new Koa();
  koa.use(errorHandler({ report: () => undefined }));
  koa.use(bearerAuth(options));
  koa.use((ctx) => void (ctx.body = { principal: authOf(ctx) }));
  return koa.callback();
}

const call = (app: ReturnType<typeof appOf>, authorization?: string) => {
  const test = request(app).get('/');
  return authorization === undefined ? test : test.set('Authorization', authorization);
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('bearer authentication: what a client is answered', () => {
  it('a valid token: the client, and the user its grant names', async () => {
    const store = storeOf();
    const app = appOf({ store });
    expect((await call(app, `Bearer ${store.issue({ client: 'web', user: 'ann' })}`).expect(200)).body).toEqual({
      principal: { client: 'web', user: 'ann', scopes: [] },
    });
    expect((await call(app, `bearer   ${store.issue({ client: 'cron' })}`).expect(200)).body).toEqual({
      principal: { client: 'cron', scopes: [] },
    });
  });

  it('no Authorization header, or a blank one: 401 missing_token with the realm', async () => {
    const app = appOf({ store: storeOf(), realm: 'orders' });
    for (const header of [undefined, '   ']) {
      const response = await call(app, header).expect(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="orders"');
      expect(response.body.errors).toEqual([
        { code: 'missing_token', message: 'this call needs a bearer token in the Authorization header' },
      ]);
    }
    expect((await call(appOf({ store: storeOf() })).expect(401)).headers['www-authenticate']).toBe(
      'Bearer realm="api"',
    );
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['no token', 'Bearer '],
    ['characters outside token68', 'Bearer abc$def'],
    ['an unknown token', 'Bearer d2hhdGV2ZXI'],
  ])('%s: 401 invalid_token, said in WWW-Authenticate too', async (_name, header) => {
    const response = await call(appOf({ store: storeOf() }), header).expect(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="api", error="invalid_token"');
    expect(response.body.errors).toEqual([{ code: 'invalid_token', message: 'the bearer token is not valid' }]);
  });

  it('the scheme and the token are the whole header: text before Bearer or after the token makes it invalid', async () => {
    const store = storeOf();
    const app = appOf({ store });
    const token = store.issue({ client: 'web' });
    await call(app, `Bearer ${token}`).expect(200);
    for (const header of [`XBearer ${token}`, `Bearer ${token} more`, `Bearer ${token},other`]) {
      const response = await call(app, header).expect(401);
      expect(response.body.errors[0].code).toBe('invalid_token');
    }
  });

  it('a token shaped like a JWT where only a token store is configured is looked up there: 401 invalid_token', async () => {
    const response = await call(appOf({ store: storeOf() }), 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig').expect(
      401,
    );
    expect(response.body.errors).toEqual([{ code: 'invalid_token', message: 'the bearer token is not valid' }]);
  });

  it('a revoked token is invalid, a refused client 403 client_refused, an expired token 403 token_expired', async () => {
    const store = storeOf();
    const app = appOf({ store, cacheMs: 0 });
    const revoked = store.issue({ client: 'web' });
    store.revoke(revoked);
    expect((await call(app, `Bearer ${revoked}`).expect(401)).body.errors[0].code).toBe('invalid_token');
    const refused = store.issue({ client: 'scraper' });
    store.refuseClient('scraper');
    expect((await call(app, `Bearer ${refused}`).expect(403)).body.errors).toEqual([
      { code: 'client_refused', message: 'this client is refused by the server' },
    ]);
    const expiring = store.issue({ client: 'web', ttlSeconds: 0.05 });
    await pause(80);
    expect((await call(app, `Bearer ${expiring}`).expect(403)).body.errors).toEqual([
      { code: 'token_expired', message: 'the bearer token has expired; obtain a new one' },
    ]);
  });

  it('two Authorization headers: 400 duplicate_header, whichever is valid', async () => {
    const store = storeOf();
    const token = store.issue({ client: 'web' });
    const server = new Koa()
      .use(errorHandler())
      .use(bearerAuth({ store }))
      .use((ctx) => void (ctx.body = {}))
      .listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const exchange = await rawExchange(url, [
        `GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\nAuthorization: Bearer other\r\n\r\n`,
      ]);
      expect(exchange.responses[0]!.status).toBe(400);
      expect(JSON.parse(exchange.responses[0]!.body).errors).toEqual([
        { code: 'duplicate_header', message: 'send one Authorization header, not several', field: 'Authorization' },
      ]);
    } finally {
      server.close();
    }
  });

  it('a revocation is honoured once the verification cached for cacheMs is older than that, at once with cacheMs 0', async () => {
    const store = storeOf();
    const cached = appOf({ store, cacheMs: 1000 });
    const uncached = appOf({ store, cacheMs: 0 });
    const token = store.issue({ client: 'web' });
    await call(cached, `Bearer ${token}`).expect(200);
    await call(uncached, `Bearer ${token}`).expect(200);
    store.revoke(token);
    await call(cached, `Bearer ${token}`).expect(200);
    await call(uncached, `Bearer ${token}`).expect(401);
    await pause(1100);
    await call(cached, `Bearer ${token}`).expect(401);
  });

  it("a cached verification is never reused past the token's own expiry", async () => {
    const store = storeOf();
    const app = appOf({ store, cacheMs: 60_000 });
    const token = store.issue({ client: 'web', ttlSeconds: 1 });
    await call(app, `Bearer ${token}`).expect(200);
    await pause(1100);
    expect((await call(app, `Bearer ${token}`).expect(403)).body.errors[0].code).toBe('token_expired');
  });

  it('a store that answers with a promise is waited for', async () => {
    const store: TokenStore = {
      ...storeOf(),
      verify: async (token: string) =>
        ({
          ok: token === 'good',
          ...(token === 'good' ? { principal: { client: 'pg', scopes: [] } } : { reason: 'invalid' }),
        }) as Verification,
    } as TokenStore;
    const app = appOf({ store });
    expect((await call(app, 'Bearer good').expect(200)).body).toEqual({ principal: { client: 'pg', scopes: [] } });
    await call(app, 'Bearer bad').expect(401);
  });

  it.each([
    [
      'synchronously',
      (error: Error) => () => {
        throw error;
      },
    ],
    ['with a promise', (error: Error) => () => Promise.reject(error)],
  ])('a store failing %s: 503 dependency_unavailable for its fault, 500 for anything else', async (_name, failWith) => {
    const fault = Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 });
    const faulty = appOf({ store: { ...storeOf(), verify: failWith(fault) } as unknown as TokenStore });
    const response = await call(faulty, 'Bearer abc').expect(503);
    expect(response.body.errors[0]).toMatchObject({ code: 'dependency_unavailable', resource: 'store' });
    const broken = appOf({ store: { ...storeOf(), verify: failWith(new TypeError('bug')) } as unknown as TokenStore });
    await call(broken, 'Bearer abc').expect(500);
  });

  it('an opaque token where only JWTs are configured is invalid', async () => {
    const app = appOf({
      jwt: {
        issuer: 'https://issuer.test',
        audience: 'api',
        algorithms: ['HS256'],
        secret: 'a-shared-secret-of-at-least-32-bytes!!',
      },
    });
    expect((await call(app, 'Bearer opaque-token').expect(401)).body.errors[0].code).toBe('invalid_token');
  });

  it('needs a token store or JWT options', () => {
    expect(() => authenticate({})).toThrow('authenticate needs a token store, JWT options, or both');
  });
});

describe('requireAuth()', () => {
  /** authenticate() then requireAuth(isPublic), answering who the request speaks for. */
  function appWith(isPublic?: (ctx: Context) => boolean) {
    const store = storeOf();
    const koa = new Koa();
    koa.use(errorHandler());
    koa.use(authenticate({ store }));
    koa.use(requireAuth(isPublic === undefined ? {} : { isPublic }));
    koa.use((ctx) => void (ctx.body = { principal: authOf(ctx) ?? null }));
    return { app: koa.callback(), token: store.issue({ client: 'web' }) };
  }

  it('a public request is served without a credential, and still names one when it has it', async () => {
    const { app, token } = appWith((ctx) => ctx.path === '/docs');
    expect((await request(app).get('/docs').expect(200)).body).toEqual({ principal: null });
    expect((await request(app).get('/docs').set('Authorization', `Bearer ${token}`).expect(200)).body).toEqual({
      principal: { client: 'web', scopes: [] },
    });
    expect((await request(app).get('/orders').expect(401)).body.errors[0].code).toBe('missing_token');
  });

  it('a public request is served while the token store is failing; any other is 503 dependency_unavailable', async () => {
    const fault = Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 });
    const failing = {
      ...storeOf(),
      verify: () => {
        throw fault;
      },
    } as unknown as TokenStore;
    const app = new Koa()
      .use(errorHandler({ report: () => undefined }))
      .use(authenticate({ store: failing }))
      .use(requireAuth({ isPublic: (ctx) => ctx.path === '/health' }))
      .use((ctx) => void (ctx.body = { principal: authOf(ctx) ?? null }))
      .callback();
    expect((await request(app).get('/health').set('Authorization', 'Bearer abc').expect(200)).body).toEqual({
      principal: null,
    });
    const refused = await request(app).get('/orders').set('Authorization', 'Bearer abc').expect(503);
    expect(refused.body.errors[0]).toMatchObject({ code: 'dependency_unavailable', resource: 'store' });
  });

  it('without authenticate() before it: 401 missing_token', async () => {
    const app = new Koa()
      .use(errorHandler())
      .use(requireAuth())
      .use((ctx) => void (ctx.body = {}))
      .callback();
    expect((await request(app).get('/').expect(401)).body.errors).toEqual([
      { code: 'missing_token', message: 'this call needs a bearer token' },
    ]);
  });
});
