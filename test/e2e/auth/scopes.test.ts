import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../support/error-body.ts';
import { headerOf } from '../../support/header-of.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { issuedTokens, issueToken, tokenCli } from '../../support/token-cli.ts';

const issuer = 'https://issuer.example.test';
const audience = 'notes-api';
const secret = 'a-shared-secret-of-at-least-32-bytes!!';

/** A JWT of the configured issuer with these claims. */
async function jwt(claims: Record<string, unknown>): Promise<string> {
  const token = await new SignJWT({ client_id: 'jwt-client', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(secret));
  issuedTokens.add(token);
  return token;
}

/**
 * Scopes: an operation declaring the scopes it needs (notes: every write needs notes:write; the
 * notes/layout setting's PUT too) answers 403 insufficient_scope to a token without them, with the
 * RFC 6750 challenge naming them, and writes nothing. Tokens get scopes from `token issue --scope`
 * or from a JWT's scope/scp claims.
 */
describe('scopes an operation needs', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({
      env: { JWT_ISSUER: issuer, JWT_AUDIENCE: audience, JWT_ALGORITHMS: 'HS256', JWT_SECRET: secret },
    });
  });
  afterAll(() => api.close());

  const as = (token: string) => ({ 'User-Agent': 'scopes-test/1.0', Authorization: `Bearer ${token}` });
  const note = { owner: 'ann', title: 'groceries' };

  const expectInsufficientScope = (response: { status: number; body: any; headers: Record<string, unknown> }) => {
    expect(response.status).toBe(403);
    expectErrorBody(response, 'insufficient_scope');
    expect(headerOf(response, 'www-authenticate')).toBe('Bearer error="insufficient_scope", scope="notes:write"');
  };

  it('a token issued with --scope notes:write creates, changes and deletes notes', async () => {
    const token = issueToken(api.databaseUrl, 'scoped-writer', { user: 'ann', scopes: ['notes:write', 'notes:other'] });
    const created = await api.raw().post('/v1/notes').set(as(token)).send(note).expect(201);
    await api.raw().patch(`/v1/notes/${created.body.identity}`).set(as(token)).send({ title: 'errands' }).expect(200);
    await api
      .raw()
      .put(`/v1/notes/${created.body.identity}`)
      .set(as(token))
      .send({ owner: 'ann', title: 'chores' })
      .expect(200);
    await api.raw().delete(`/v1/notes/${created.body.identity}`).set(as(token)).expect(204);
  });

  it('a token without the scope gets 403 insufficient_scope on every write, and nothing is written', async () => {
    const writer = issueToken(api.databaseUrl, 'scoped-writer', { user: 'ann', scopes: ['notes:write'] });
    const created = await api.raw().post('/v1/notes').set(as(writer)).send(note).expect(201);
    const path = `/v1/notes/${created.body.identity}`;
    const unscoped = issueToken(api.databaseUrl, 'unscoped', { user: 'ann', scopes: ['notes:read'] });
    expectInsufficientScope(await api.raw().post('/v1/notes').set(as(unscoped)).send(note));
    expectInsufficientScope(await api.raw().patch(path).set(as(unscoped)).send({ title: 'changed' }));
    expectInsufficientScope(await api.raw().put(path).set(as(unscoped)).send({ owner: 'ann', title: 'changed' }));
    expectInsufficientScope(await api.raw().delete(path).set(as(unscoped)));
    // Reads need no scope; the note is as it was written.
    const read = await api.raw().get(path).set(as(unscoped)).expect(200);
    expect(read.body.title).toBe('groceries');
  });

  it('the setting notes/layout: GET needs no scope, PUT needs notes:write', async () => {
    const unscoped = issueToken(api.databaseUrl, 'layout-reader');
    await api.raw().get('/settings/v1/notes/layout').set(as(unscoped)).expect(200);
    expectInsufficientScope(await api.raw().put('/settings/v1/notes/layout').set(as(unscoped)).send({ view: 'grid' }));
    // PATCH changes what PUT changes: it needs PUT's scopes when the declaration names none of its own.
    expectInsufficientScope(
      await api.raw().patch('/settings/v1/notes/layout').set(as(unscoped)).send({ view: 'grid' }),
    );
    expect((await api.raw().get('/settings/v1/notes/layout').set(as(unscoped)).expect(200)).body).toEqual({});
    const scoped = issueToken(api.databaseUrl, 'layout-reader', { scopes: ['notes:write'] });
    await api.raw().put('/settings/v1/notes/layout').set(as(scoped)).send({ view: 'grid' }).expect(200);
    expect((await api.raw().get('/settings/v1/notes/layout').set(as(scoped)).expect(200)).body).toEqual({
      view: 'grid',
    });
  });

  it('a token issued without --scope still calls the existing operations', async () => {
    const plain = issueToken(api.databaseUrl, 'plain');
    await api.raw().post('/v1/orders').set(as(plain)).send({ item: 'mug', quantity: 1 }).expect(201);
    await api.raw().put('/settings/v1/gui/lang').set(as(plain)).send({ lang: 'fr-FR' }).expect(200);
  });

  it.each([
    ['scope', { scope: 'notes:read notes:write' }],
    ['scp as an array', { scp: ['notes:write'] }],
    ['scp as a string', { scp: 'notes:write' }],
  ])(
    'a JWT granting notes:write in %s may write; one without it gets 403 insufficient_scope',
    async (_name, claims) => {
      await api
        .raw()
        .post('/v1/notes')
        .set(as(await jwt({ sub: 'ann', ...claims })))
        .send(note)
        .expect(201);
      expectInsufficientScope(
        await api
          .raw()
          .post('/v1/notes')
          .set(as(await jwt({ sub: 'ann', scope: 'notes:read' })))
          .send(note),
      );
    },
  );

  it('the token CLI refuses a malformed scope with a usage error', () => {
    const { status, stderr } = tokenCli(api.databaseUrl, 'issue', '--client', 'x', '--scope', 'two words');
    expect(status).toBe(2);
    expect(stderr).toContain('--scope "two words" is not a scope');
  });
});
