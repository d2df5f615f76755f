import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  jwtOptionsFromEnvironment,
  redactedUrl,
  rejectTokenInUrl,
  requireUserAgent,
  SqliteTokenStore,
} from '../../../runtime/auth/index.ts';
import { expiryOf, tokenHash, UNKNOWN_TOKEN } from '../../../runtime/auth/token-store.ts';
import { errorHandler } from '../../../runtime/http/index.ts';
import { IN_MEMORY, openDatabase } from '../../../runtime/storage/index.ts';
import type { Context } from 'koa';

describe('SqliteTokenStore', () => {
  it('issues a fresh random token each time; only its hash is stored', () => {
    const db = openDatabase(IN_MEMORY);
    const store = new SqliteTokenStore(db);
    const first = store.issue({ client: 'web' });
    const second = store.issue({ client: 'web' });
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    const stored = db
      .prepare('SELECT token_hash FROM auth_tokens')
      .all()
      .map((row) => (row as { token_hash: string }).token_hash);
    // Beside them, the row unknown tokens are answered from (a hash no token can have).
    expect(stored.sort()).toEqual([tokenHash(first), tokenHash(second), UNKNOWN_TOKEN.hash].sort());
    expect(stored).not.toContain(first);
  });

  it('revoke(): true once for a live token, then false; false for an unknown one', () => {
    const store = new SqliteTokenStore(openDatabase(IN_MEMORY));
    const token = store.issue({ client: 'web' });
    expect(store.revoke(token)).toBe(true);
    expect(store.revoke(token)).toBe(false);
    expect(store.revoke('unknown')).toBe(false);
    expect(store.verify(token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('revokeGrant(): every token of the grant, and only that grant; a new grant later does not revive them', () => {
    const store = new SqliteTokenStore(openDatabase(IN_MEMORY));
    const ann = [store.issue({ client: 'web', user: 'ann' }), store.issue({ client: 'web', user: 'ann' })];
    const bob = store.issue({ client: 'web', user: 'bob' });
    const client = store.issue({ client: 'web' });
    expect(store.revokeGrant('web', 'ann')).toBe(true);
    expect(store.revokeGrant('web', 'nobody')).toBe(false);
    expect(store.revokeGrant('elsewhere')).toBe(false);
    for (const token of ann) expect(store.verify(token)).toEqual({ ok: false, reason: 'invalid' });
    expect(store.verify(bob)).toEqual({ ok: true, principal: { client: 'web', user: 'bob', scopes: [] } });
    expect(store.verify(client)).toEqual({ ok: true, principal: { client: 'web', scopes: [] } });
    const again = store.issue({ client: 'web', user: 'ann' });
    expect(store.verify(again)).toEqual({ ok: true, principal: { client: 'web', user: 'ann', scopes: [] } });
    for (const token of ann) expect(store.verify(token).ok).toBe(false);
    expect(store.revokeGrant('web')).toBe(true);
    expect(store.verify(client).ok).toBe(false);
  });

  it('refuseClient(): every token of the client, even one not seen before it was refused', () => {
    const store = new SqliteTokenStore(openDatabase(IN_MEMORY));
    const token = store.issue({ client: 'scraper', user: 'x' });
    store.refuseClient('scraper');
    expect(store.verify(token)).toEqual({ ok: false, reason: 'refused' });
    store.refuseClient('future');
    expect(store.verify(store.issue({ client: 'future' }))).toEqual({ ok: false, reason: 'refused' });
    // A revoked token stays invalid, whatever its client.
    store.revoke(token);
    expect(store.verify(token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('a lifetime is kept to the millisecond, and the answer says when it ends', () => {
    const store = new SqliteTokenStore(openDatabase(IN_MEMORY));
    const before = Date.now();
    const verification = store.verify(store.issue({ client: 'web', ttlSeconds: 2.5 }));
    expect(verification.ok).toBe(true);
    const expiresAtMs = (verification as { expiresAtMs: number }).expiresAtMs;
    expect(expiresAtMs).toBeGreaterThanOrEqual(before + 2500);
    expect(expiresAtMs).toBeLessThanOrEqual(Date.now() + 2500);
    expect(store.verify(store.issue({ client: 'web' }))).toEqual({
      ok: true,
      principal: { client: 'web', scopes: [] },
    });
  });

  it('a file that could not take the unknown-token row: an unknown token is still invalid, a known one valid', () => {
    const db = openDatabase(IN_MEMORY);
    const store = new SqliteTokenStore(db);
    const token = store.issue({ client: 'web' });
    // As a full disk or a read-only file at start leaves it: no row for unknown tokens to read.
    db.prepare('DELETE FROM auth_tokens WHERE token_hash = ?').run(UNKNOWN_TOKEN.hash);
    expect(store.verify('d2hhdGV2ZXI')).toEqual({ ok: false, reason: 'invalid' });
    expect(store.verify(token)).toEqual({ ok: true, principal: { client: 'web', scopes: [] } });
  });

  it('scopes: the token grants those it was issued with, each once, in their order; a malformed one is refused', () => {
    const store = new SqliteTokenStore(openDatabase(IN_MEMORY));
    const token = store.issue({ client: 'web', user: 'ann', scopes: ['notes:write', 'notes:read', 'notes:write'] });
    expect(store.verify(token)).toEqual({
      ok: true,
      principal: { client: 'web', user: 'ann', scopes: ['notes:write', 'notes:read'] },
    });
    for (const scope of ['notes write', 'say"hi"', '']) {
      expect(() => store.issue({ client: 'web', scopes: [scope] })).toThrow(
        `"${scope}" is not a scope: printable ASCII without spaces, quotes or backslashes (notes:write)`,
      );
    }
  });

  it('expiryOf(): ms and whole seconds rounded up; nothing without a lifetime', () => {
    expect(expiryOf(undefined)).toEqual({ ms: null, seconds: null });
    expect(expiryOf(1.2345, 1_000_000)).toEqual({ ms: 1_001_235, seconds: 1002 });
    expect(expiryOf(2, 1_000_000)).toEqual({ ms: 1_002_000, seconds: 1002 });
  });

  it('a file from before ms expiry: the column is added and filled, every token keeps its lifetime', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tokens-')), 'app.db');
    const earlier = openDatabase(path);
    earlier.exec(`
      CREATE TABLE auth_clients (name TEXT PRIMARY KEY NOT NULL, refused INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);
      CREATE TABLE auth_grants (grant_id INTEGER PRIMARY KEY AUTOINCREMENT, client TEXT NOT NULL, user_name TEXT NOT NULL DEFAULT '', revoked INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, UNIQUE (client, user_name));
      CREATE TABLE auth_tokens (token_hash TEXT PRIMARY KEY NOT NULL, grant_id INTEGER NOT NULL, expires_at INTEGER, revoked INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);
      INSERT INTO auth_clients (name, created_at) VALUES ('web', 0);
      INSERT INTO auth_grants (client, created_at) VALUES ('web', 0);
    `);
    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    earlier
      .prepare(
        'INSERT INTO auth_tokens (token_hash, grant_id, expires_at, created_at) VALUES (?, 1, ?, 0), (?, 1, ?, 0), (?, 1, NULL, 0)',
      )
      .run(tokenHash('live'), inAnHour, tokenHash('past'), 1000, tokenHash('forever'));
    earlier.close();
    const store = new SqliteTokenStore(openDatabase(path));
    expect(store.verify('live')).toEqual({
      ok: true,
      principal: { client: 'web', scopes: [] },
      expiresAtMs: inAnHour * 1000,
    });
    expect(store.verify('past')).toEqual({ ok: false, reason: 'expired' });
    expect(store.verify('forever')).toEqual({ ok: true, principal: { client: 'web', scopes: [] } });
    // Opened again: nothing to add twice.
    expect(new SqliteTokenStore(openDatabase(path)).verify('live').ok).toBe(true);
  });
});

/** An app behind `middleware` answering 200 {}. */
const behind = (middleware: Koa.Middleware) =>
  new Koa()
    .use(errorHandler())
    .use(middleware)
    .use((ctx) => void (ctx.body = {}))
    .callback();

describe('requireUserAgent()', () => {
  it('a missing or blank User-Agent: 400 missing_user_agent naming the header', async () => {
    const app = behind(requireUserAgent());
    for (const value of ['', '   ']) {
      const response = await request(app).get('/').set('User-Agent', value).expect(400);
      expect(response.body.errors).toEqual([
        {
          code: 'missing_user_agent',
          message: 'the User-Agent header is required and must name the client',
          field: 'User-Agent',
        },
      ]);
    }
    await request(app).get('/').set('User-Agent', 'reports/2.1').expect(200);
  });
});

describe('rejectTokenInUrl()', () => {
  it('a credential parameter in the query string: 400 token_in_url naming it, whatever its case or hyphens', async () => {
    const app = behind(rejectTokenInUrl());
    for (const name of ['access_token', 'Access-Token', 'API_KEY', 'jwt']) {
      const response = await request(app).get(`/v1/orders?q=1&${name}=s3cret`).expect(400);
      expect(response.body.errors).toEqual([
        {
          code: 'token_in_url',
          message: `credentials are sent in the Authorization header only, never in the URL (${name}); this request was not authenticated`,
          field: name,
        },
      ]);
    }
    await request(app).get('/v1/orders?q=apple&limit=5').expect(200);
    await request(app).get('/v1/orders').expect(200);
  });

  // The field names the parameter as the query string decodes it (once); the name is then decoded twice more at most.
  it.each([
    ['inside brackets', 'filter[access_token]', 'filter[access_token]'],
    ['percent-encoded three times over', 'access%25255Ftoken', 'access%255Ftoken'],
  ])('a credential name %s: 400 token_in_url', async (_name, sent, field) => {
    const response = await request(behind(rejectTokenInUrl())).get(`/?${sent}=s3cret`).expect(400);
    expect(response.body.errors[0]).toMatchObject({ code: 'token_in_url', field });
  });

  it('a name encoded four times over is not decoded to the end: not read as a credential name', async () => {
    await request(behind(rejectTokenInUrl())).get('/?access%2525255Ftoken=1').expect(200);
  });

  it('its own list of names when given', async () => {
    const app = behind(rejectTokenInUrl({ parameters: ['Session-Id'] }));
    await request(app).get('/?session_id=1').expect(400);
    await request(app).get('/?access_token=1').expect(200);
  });

  it('redactedUrl(): the path alone, the query string said to be there but not shown', () => {
    expect(redactedUrl({ path: '/v1/orders', querystring: '' } as Context)).toBe('/v1/orders');
    expect(redactedUrl({ path: '/v1/orders', querystring: 'access_token=x' } as Context)).toBe('/v1/orders?[redacted]');
  });
});

describe('jwtOptionsFromEnvironment()', () => {
  it('off without JWT_ISSUER', () => {
    expect(jwtOptionsFromEnvironment({})).toBeUndefined();
    expect(jwtOptionsFromEnvironment({ JWT_ISSUER: '', JWT_SECRET: 'x' })).toBeUndefined();
  });

  it('a secret, or a key set read from its file; algorithms listed with blanks and empty items left out', () => {
    const base = { JWT_ISSUER: 'https://issuer.test', JWT_AUDIENCE: 'api', JWT_ALGORITHMS: ' HS256 , ,HS512,' };
    expect(jwtOptionsFromEnvironment({ ...base, JWT_SECRET: 's3cret' })).toEqual({
      issuer: 'https://issuer.test',
      audience: 'api',
      algorithms: ['HS256', 'HS512'],
      secret: 's3cret',
    });
    const file = join(mkdtempSync(join(tmpdir(), 'jwks-')), 'keys.json');
    writeFileSync(file, JSON.stringify({ keys: [{ kty: 'oct', k: 'abc' }] }));
    expect(jwtOptionsFromEnvironment({ ...base, JWT_JWKS_FILE: file })).toEqual({
      issuer: 'https://issuer.test',
      audience: 'api',
      algorithms: ['HS256', 'HS512'],
      jwks: { keys: [{ kty: 'oct', k: 'abc' }] },
    });
  });

  it.each([['JWT_AUDIENCE'], ['JWT_ALGORITHMS'], ['JWT_JWKS_FILE']])('refuses to start without %s', (missing) => {
    const env: Record<string, string> = {
      JWT_ISSUER: 'https://issuer.test',
      JWT_AUDIENCE: 'api',
      JWT_ALGORITHMS: 'RS256',
      JWT_JWKS_FILE: '/nonexistent',
    };
    env[missing] = '';
    expect(() => jwtOptionsFromEnvironment(env)).toThrow(`${missing} is required when JWT_ISSUER is set`);
  });
});
