import { createHook } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { testEngine } from '../../support/test-database.ts';

// The fast path's rules (ARCHITECTURE.md, "The fast path"): on SQLite, a GET of one resource, of a
// list and a 304 are handled in the request listener's synchronous call, with no promise made and
// only the fast idioms (setResponseHeader, setJsonBody) used. Each promise costs an allocation and
// a turn of the microtask queue per request; this test says which request broke the rule at once,
// where the benchmark would show it only as a slower figure after fifteen minutes.

/** What the synchronous handling of one request did that the fast path must not. */
interface Witnessed {
  promises: number;
  /** Koa's ctx.set()/ctx.response.set(): the everyday idiom, off the fast path. */
  koaSets: string[];
  /** A body that Koa must serialise or stream (an object, a stream) instead of the text setJsonBody leaves. */
  nonTextBodies: string[];
}

const fresh = (): Witnessed => ({ promises: 0, koaSets: [], nonTextBodies: [] });
let watching: Witnessed | undefined;

// PROMISE init events are reported only while a hook listening for them is enabled.
const promiseHook = createHook({
  init(_id, type) {
    if (watching !== undefined && type === 'PROMISE') watching.promises += 1;
  },
});

/** Puts a watch around the server's request listeners (all of them, in order) and on the Koa app's response prototype. */
function watchRequests(api: TestApi): void {
  const server = api.running.server;
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (listeners.length === 0) throw new Error('expected the request listeners serve() installs');
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const seen = fresh();
    witnessedByPath.set(req.url ?? '', seen);
    watching = seen;
    try {
      for (const listener of listeners) listener.call(server, req, res);
    } finally {
      watching = undefined;
    }
  });
  const app: Koa = api.running.api.app;
  const response = app.response as unknown as Record<string, unknown>;
  const koaSet = response.set as (this: unknown, ...args: unknown[]) => unknown;
  response.set = function watchedSet(this: unknown, ...args: unknown[]) {
    watching?.koaSets.push(String(args[0]));
    return koaSet.apply(this, args);
  };
  const body = findAccessor(response, 'body');
  Object.defineProperty(response, 'body', {
    configurable: true,
    get: body.get,
    set(this: unknown, value: unknown) {
      if (watching !== undefined && value != null && typeof value !== 'string' && !Buffer.isBuffer(value))
        watching.nonTextBodies.push(typeof value);
      body.set!.call(this, value);
    },
  });
}

function findAccessor(object: object, name: string): PropertyDescriptor {
  for (let at: object | null = object; at !== null; at = Object.getPrototypeOf(at)) {
    const descriptor = Object.getOwnPropertyDescriptor(at, name);
    if (descriptor?.set !== undefined) return descriptor;
  }
  throw new Error(`no ${name} setter on Koa's response`);
}

const witnessedByPath = new Map<string, Witnessed>();

// SQLite answers synchronously; PostgreSQL's answers are promises by design (ARCHITECTURE.md, "The engine boundary").
describe.runIf(testEngine() === 'sqlite')('the fast path: synchronous requests on SQLite', () => {
  let api: TestApi;
  let etag: string;
  beforeAll(async () => {
    api = await startApi();
    await api.post('/v1/orders', { item: 'apples', quantity: 3 }).expect(201);
    await api.post('/v1/orders', { item: 'pears', quantity: 5 }).expect(201);
    etag = (await api.get('/v1/orders/1').expect(200)).headers.etag as string;
    watchRequests(api);
    promiseHook.enable();
  });
  afterAll(async () => {
    promiseHook.disable();
    await api?.close();
  });

  it.each([
    ['GET one', '/v1/orders/1', {}, 200],
    ['GET a list', '/v1/orders?limit=10', {}, 200],
    ['GET one, not modified', '/v1/orders/1', { 'If-None-Match': () => etag }, 304],
  ] as const)(
    '%s: answered within the synchronous call, with no promise and no slow idiom',
    async (_name, path, headers, status) => {
      const request = api.get(path);
      for (const [name, value] of Object.entries(headers)) request.set(name, value());
      await request.expect(status);
      expect(witnessedByPath.get(path)).toEqual(fresh());
    },
  );

  it('counts a promise made while a request is watched (the watch itself works)', () => {
    const seen = fresh();
    watching = seen;
    try {
      void Promise.resolve();
    } finally {
      watching = undefined;
    }
    expect(seen.promises).toBe(1);
  });
});
