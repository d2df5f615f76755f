import Koa from 'koa';
import request from 'supertest';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { authOf, bearerAuth, jwtVerifier, type JwtOptions } from '../../../runtime/auth/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';

const issuer = 'https://issuer.example.test';
const audience = 'orders-api';
const secret = 'a-shared-secret-of-at-least-32-bytes!!';

function app(options: JwtOptions) {
  const koa = new Koa();
  koa.use(errorHandler());
  koa.use(bearerAuth({ jwt: options }));
  koa.use((ctx) => void (ctx.body = authOf(ctx)));
  return koa.callback();
}

const call = (served: ReturnType<typeof app>, token: string) =>
  request(served).get('/').set('Authorization', `Bearer ${token}`);

describe('JWT verification (jose) in a plain Koa app', () => {
  const hmac = app({ issuer, audience, algorithms: ['HS256'], secret });
  const sign = (claims: Record<string, unknown> = {}, alg = 'HS256') =>
    new SignJWT({ client_id: 'reporting', ...claims })
      .setProtectedHeader({ alg })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject('ann')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(secret));

  it('accepts a well-signed token and names its client and user', async () => {
    const response = await call(hmac, await sign()).expect(200);
    expect(response.body).toEqual({ client: 'reporting', user: 'ann', scopes: [] });
  });

  it.each([
    ['scope, space-separated', { scope: 'notes:write notes:read' }, ['notes:write', 'notes:read']],
    ['scp, an array', { scp: ['notes:write', 'notes:read'] }, ['notes:write', 'notes:read']],
    ['scp, a string', { scp: 'notes:write' }, ['notes:write']],
    [
      'both, each scope once',
      { scope: 'notes:read', scp: ['notes:write', 'notes:read'] },
      ['notes:read', 'notes:write'],
    ],
    ['neither', {}, []],
    ['a malformed entry left out', { scope: 'notes:write  bad"scope', scp: [7, 'ok'] }, ['notes:write', 'ok']],
  ])('reads the scopes from %s', async (_name, claims, scopes) => {
    const response = await call(hmac, await sign(claims)).expect(200);
    expect(response.body.scopes).toEqual(scopes);
  });

  it.each([
    [
      'a wrong issuer',
      () =>
        new SignJWT({ client_id: 'x' })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer('https://evil.test')
          .setAudience(audience)
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(secret)),
    ],
    [
      'a wrong audience',
      () =>
        new SignJWT({ client_id: 'x' })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(issuer)
          .setAudience('other')
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(secret)),
    ],
    ['a future nbf', () => sign({ nbf: Math.floor(Date.now() / 1000) + 3600 })],
    [
      'a wrong secret',
      () =>
        new SignJWT({ client_id: 'x' })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(issuer)
          .setAudience(audience)
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('another-secret-of-at-least-32-bytes!!')),
    ],
    ['an algorithm that is not pinned', () => sign({}, 'HS512')],
    [
      'alg none',
      async () =>
        new UnsecuredJWT({ client_id: 'x' }).setIssuer(issuer).setAudience(audience).setExpirationTime('5m').encode(),
    ],
  ])('refuses %s with 401 invalid_token', async (_name, token) => {
    const response = await call(hmac, await token()).expect(401);
    expect(response.body.errors[0].code).toBe('invalid_token');
  });

  it('answers an expired token with 403 token_expired', async () => {
    const expired = await new SignJWT({ client_id: 'reporting' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(secret));
    const response = await call(hmac, expired).expect(403);
    expect(response.body.errors[0].code).toBe('token_expired');
  });

  describe('with a key set', () => {
    let rsa: ReturnType<typeof app>;
    let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
    beforeAll(async () => {
      const pair = await generateKeyPair('RS256');
      privateKey = pair.privateKey;
      const jwk = { ...(await exportJWK(pair.publicKey)), alg: 'RS256', kid: 'k1' };
      rsa = app({ issuer, audience, algorithms: ['RS256'], jwks: { keys: [jwk] } });
    });

    it('accepts a token signed by the key', async () => {
      const token = await new SignJWT({ azp: 'mobile' })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setExpirationTime('5m')
        .sign(privateKey);
      await call(rsa, token).expect(200, { client: 'mobile', scopes: [] });
    });

    it('refuses an HMAC token against an RSA key set (wrong key type)', async () => {
      const token = await new SignJWT({ client_id: 'x' })
        .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(secret));
      await call(rsa, token).expect(401);
    });
  });

  it('refuses to be configured with alg none or without pinned algorithms', () => {
    expect(() => app({ issuer, audience, algorithms: ['none'], secret })).toThrow(/none/);
    expect(() => app({ issuer, audience, algorithms: ['HS256', 'None'], secret })).toThrow(
      'alg "none" can never be accepted',
    );
    expect(() => app({ issuer, audience, algorithms: [], secret })).toThrow(/pinned/);
  });

  it('refuses to be configured with both a secret and a key set, or with neither', () => {
    const needsOne = 'JWT verification needs exactly one of secret or jwks';
    expect(() => app({ issuer, audience, algorithms: ['HS256'], secret, jwks: { keys: [] } })).toThrow(needsOne);
    expect(() => app({ issuer, audience, algorithms: ['HS256'] })).toThrow(needsOne);
  });

  it('refuses a malformed key set when configured, before any token arrives', () => {
    const malformed = /JSON Web Key Set is malformed/;
    for (const jwks of [{}, { keys: 'k' }, { keys: [1] }, { keys: [[]] }])
      expect(() => app({ issuer, audience, algorithms: ['RS256'], jwks: jwks as never })).toThrow(malformed);
  });
});

describe('who a JWT speaks for', () => {
  const signed = (claims: Record<string, unknown>, expires = true) => {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(issuer).setAudience(audience);
    return (expires ? jwt.setExpirationTime('5m') : jwt).sign(new TextEncoder().encode(secret));
  };
  const served = (options: Partial<JwtOptions> = {}) =>
    app({ issuer, audience, algorithms: ['HS256'], secret, ...options });

  it.each([
    ['client_id first', { client_id: 'reporting', azp: 'mobile', sub: 'ann' }, { client: 'reporting', user: 'ann' }],
    ['azp without client_id', { azp: 'mobile', sub: 'ann' }, { client: 'mobile', user: 'ann' }],
    ['sub alone: the client itself, no user', { sub: 'cron' }, { client: 'cron' }],
    ['an empty client_id is no claim', { client_id: '', azp: 'mobile' }, { client: 'mobile' }],
    ['a client_id that is not a string is no claim', { client_id: 7, azp: 'mobile' }, { client: 'mobile' }],
    ['sub naming the client again: no user', { client_id: 'cron', sub: 'cron' }, { client: 'cron' }],
    ['an empty sub: no user', { client_id: 'cron', sub: '' }, { client: 'cron' }],
  ])('%s', async (_name, claims, principal) => {
    await call(served(), await signed(claims)).expect(200, { ...principal, scopes: [] });
  });

  it('claims of its own choosing name the client and the user', async () => {
    const custom = served({ clientClaim: 'app', userClaim: 'email' });
    await call(
      custom,
      await signed({ app: 'billing', email: 'ann@example.test', client_id: 'other', sub: 'x' }),
    ).expect(200, { client: 'billing', user: 'ann@example.test', scopes: [] });
    // The named claim only: client_id, azp and sub are not read in its place.
    await call(custom, await signed({ client_id: 'other', azp: 'other', sub: 'x' })).expect(401);
  });

  it('a token naming no client: 401 invalid_token', async () => {
    const response = await call(served(), await signed({ scope: 'notes:read' })).expect(401);
    expect(response.body.errors[0].code).toBe('invalid_token');
  });

  it('a token without exp is valid, and the answer gives no expiry; with exp, the expiry in ms', async () => {
    await call(served(), await signed({ client_id: 'cron' }, false)).expect(200, { client: 'cron', scopes: [] });
    const verify = jwtVerifier({ issuer, audience, algorithms: ['HS256'], secret });
    expect(await verify(await signed({ client_id: 'cron' }, false))).toEqual({
      ok: true,
      principal: { client: 'cron', scopes: [] },
    });
    const exp = Math.floor(Date.now() / 1000) + 300;
    const token = await new SignJWT({ client_id: 'cron' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(secret));
    expect(await verify(token)).toEqual({
      ok: true,
      principal: { client: 'cron', scopes: [] },
      expiresAtMs: exp * 1000,
    });
  });
});
