import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  bearerAuth,
  callerOf,
  hasScopes,
  scopeChecked,
  SqliteTokenStore,
  type Caller,
} from '../../../runtime/auth/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';
import type { Route } from '../../../runtime/routing/index.ts';
import { IN_MEMORY, openDatabase } from '../../../runtime/storage/index.ts';

/** A route needing `scopes`, served behind bearer authentication as the generated server serves it. */
function appServing(scopes: readonly string[] | undefined) {
  const store = new SqliteTokenStore(openDatabase(IN_MEMORY));
  const route: Route = {
    method: 'POST',
    path: '/v1/notes',
    family: 'resource',
    ...(scopes === undefined ? {} : { scopes }),
    handle: (ctx) => void (ctx.body = { caller: callerOf(ctx) }),
  };
  const checked = scopeChecked(route);
  const koa = new Koa();
  koa.use(errorHandler({ report: () => undefined }));
  koa.use(bearerAuth({ store }));
  koa.use((ctx) => checked.handle(ctx, {}));
  const callWith = (granted: readonly string[]) =>
    request(koa.callback())
      .post('/v1/notes')
      .set('Authorization', `Bearer ${store.issue({ client: 'web', scopes: granted })}`);
  return { route, checked, callWith };
}

describe('scopes a route needs', () => {
  it('a token holding every scope needed is served, whatever else it holds', async () => {
    const { callWith } = appServing(['notes:write', 'notes:read']);
    const response = await callWith(['notes:read', 'admin', 'notes:write']).expect(200);
    expect(response.body).toEqual({
      caller: { client: 'web', scopes: ['notes:read', 'admin', 'notes:write'] },
    });
  });

  it('one scope missing: 403 insufficient_scope naming it, the challenge naming every scope needed', async () => {
    const { callWith } = appServing(['notes:write']);
    const response = await callWith(['notes:read']).expect(403);
    expect(response.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="notes:write"');
    expect(response.body).toEqual({
      message: 'Forbidden',
      errors: [
        {
          code: 'insufficient_scope',
          message: 'this operation needs the scope notes:write; the bearer token lacks notes:write',
        },
      ],
    });
  });

  it('several needed, some missing: each missing one named, the needed ones in the challenge in their order', async () => {
    const { callWith } = appServing(['notes:read', 'notes:write', 'audits:read']);
    const response = await callWith(['notes:read']).expect(403);
    expect(response.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="notes:read notes:write audits:read"',
    );
    expect(response.body.errors).toEqual([
      {
        code: 'insufficient_scope',
        message:
          'this operation needs the scopes notes:read, notes:write, audits:read; the bearer token lacks notes:write, audits:read',
      },
    ]);
    await callWith([]).expect(403);
  });

  it('a route needing no scope is served to any valid token, and is left as it was', async () => {
    for (const scopes of [undefined, []]) {
      const { route, checked, callWith } = appServing(scopes);
      expect(checked).toBe(route);
      expect((await callWith([]).expect(200)).body).toEqual({ caller: { client: 'web', scopes: [] } });
    }
  });
});

describe('hasScopes()', () => {
  const caller: Caller = { client: 'web', scopes: ['notes:read', 'notes:write'] };

  it('true when the caller holds every scope needed, and for none needed', () => {
    expect(hasScopes(caller, ['notes:write', 'notes:read'])).toBe(true);
    expect(hasScopes(caller, [])).toBe(true);
    expect(hasScopes(undefined, [])).toBe(true);
  });

  it('false when one is missing, or when there is no caller', () => {
    expect(hasScopes(caller, ['notes:read', 'admin'])).toBe(false);
    expect(hasScopes({ client: 'web', scopes: [] }, ['notes:read'])).toBe(false);
    expect(hasScopes(undefined, ['notes:read'])).toBe(false);
  });
});
