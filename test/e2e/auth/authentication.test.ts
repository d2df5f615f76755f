import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { issuedTokens, issueToken, tokenCli } from '../../support/token-cli.ts';
import { until } from '../../support/poll.ts';

const ERROR_CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** True once `check` holds, polling for at most `ms` (the contract allows a revocation up to 1 s). */
const eventually = async (check: () => Promise<boolean>, ms = 1000) => until(check, (ok) => ok, ms);

/** A CLI call that must succeed; its stderr is the failure message when it does not. */
function expectCli(result: { status: number | null; stderr: string }): void {
  expect(result.status, result.stderr).toBe(0);
}

describe('authentication', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  const call = (headers: Record<string, string>, path = '/v1/orders') => {
    let test = api.raw().get(path);
    for (const [name, value] of Object.entries(headers)) test = test.set(name, value);
    return test;
  };

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('a %s User-Agent gets 400 missing_user_agent', async (_name, userAgent) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${issueToken(api.databaseUrl, 'ua-test')}` };
    let test = api.raw().get('/v1/orders').set(headers);
    // supertest sends no User-Agent unless told; an explicit empty one is sent as given.
    if (userAgent !== undefined) test = test.set('User-Agent', userAgent);
    const response = await test.expect(400);
    expect(response.body.errors[0].code).toBe('missing_user_agent');
    expect(response.headers['content-type']).toBe('application/json;charset=UTF-8');
  });

  it('no credential: 401 with WWW-Authenticate: Bearer', async () => {
    const response = await call({ 'User-Agent': 'e2e' }).expect(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer\b/);
    expect(response.body.errors[0].code).toMatch(ERROR_CODE);
  });

  it.each([
    ['access_token', 'access_token'],
    ['token', 'token'],
    ['a bracketed access_token[]', 'access_token[]'],
    ['an indexed name in capitals', 'ACCESS_TOKEN[0]'],
    ['a percent-encoded bracketed name', 'access%5Ftoken%5B%5D'],
    ['a name encoded twice', 'access%255Ftoken'],
  ])('a credential in the URL (%s) gets 400 token_in_url and never authenticates', async (_name, parameter) => {
    const token = issueToken(api.databaseUrl, 'url-test');
    const response = await call({ 'User-Agent': 'e2e' }, `/v1/orders?${parameter}=${token}`).expect(400);
    expect(response.body.errors[0].code).toBe('token_in_url');
    // Even with a valid header too, a token in the URL is refused.
    const both = await call(
      { 'User-Agent': 'e2e', Authorization: `Bearer ${token}` },
      `/v1/orders?${parameter}=${token}`,
    ).expect(400);
    expect(both.body.errors[0].code).toBe('token_in_url');
  });

  it.each([
    ['unknown', 'Bearer aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['malformed', 'Bearer not a token'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('an %s credential gets 401 invalid_token with the RFC 6750 error attribute', async (_name, authorization) => {
    const response = await call({ 'User-Agent': 'e2e', Authorization: authorization }).expect(401);
    expect(response.body.errors[0].code).toBe('invalid_token');
    expect(response.headers['www-authenticate']).toMatch(/error="invalid_token"/);
  });

  it('issue says on standard error which database the token is in, never its password', async () => {
    const issued = tokenCli(api.databaseUrl, 'issue', '--client', 'where-test');
    expect(issued.status).toBe(0);
    issuedTokens.add(issued.lines.at(-1)!);
    const url = new URL(api.databaseUrl);
    const password = url.password;
    if (password !== '') url.password = '***';
    const database = url.protocol === 'sqlite:' ? `sqlite:${api.databaseUrl.slice('sqlite:'.length)}` : url.toString();
    expect(issued.stderr.trim()).toBe(`issued a token for client where-test, in ${database}`);
    if (password !== '') expect(issued.stderr).not.toContain(password);
  });

  it('a revoked token answers exactly like an unknown one, within 1 s of the CLI revoking it', async () => {
    const token = issueToken(api.databaseUrl, 'revoke-test');
    await call({ 'User-Agent': 'e2e', Authorization: `Bearer ${token}` }).expect(200);
    expectCli(tokenCli(api.databaseUrl, 'revoke', token));
    expect(
      await eventually(
        async () => (await call({ 'User-Agent': 'e2e', Authorization: `Bearer ${token}` })).status === 401,
      ),
    ).toBe(true);
    const revoked = await call({ 'User-Agent': 'e2e', Authorization: `Bearer ${token}` });
    const unknown = await call({ 'User-Agent': 'e2e', Authorization: `Bearer ${'b'.repeat(43)}` });
    expect(revoked.body).toEqual(unknown.body);
    expect(revoked.headers['www-authenticate']).toBe(unknown.headers['www-authenticate']);
  });

  it('revoke takes a token that begins with "-" as the token, not as an option (base64url: one token in 64)', async () => {
    const dashed = `-I${'x'.repeat(41)}`;
    for (const args of [
      ['revoke', dashed],
      ['revoke', '--', dashed],
    ]) {
      const result = tokenCli(api.databaseUrl, ...args);
      expectCli(result);
      expect(result.lines.at(-1)).toBe('no such active token (nothing to revoke)');
    }
    const refused = tokenCli(api.databaseUrl, 'refuse-client', '-odd-client');
    expectCli(refused);
    expect(refused.lines.at(-1)).toBe('client -odd-client refused');
    expect(tokenCli(api.databaseUrl, 'revoke', dashed, '--client', 'x').status).toBe(2);
  });

  it('revoking a grant revokes its tokens within 1 s', async () => {
    const token = issueToken(api.databaseUrl, 'grant-test', { user: 'ann' });
    await call({ 'User-Agent': 'e2e', Authorization: `Bearer ${token}` }).expect(200);
    expectCli(tokenCli(api.databaseUrl, 'revoke-grant', '--client', 'grant-test', '--user', 'ann'));
    expect(
      await eventually(
        async () => (await call({ 'User-Agent': 'e2e', Authorization: `Bearer ${token}` })).status === 401,
      ),
    ).toBe(true);
  });

  it('an expired token gets 403 token_expired', async () => {
    const token = issueToken(api.databaseUrl, 'expiry-test', { ttl: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const response = await call({ 'User-Agent': 'e2e', Authorization: `Bearer ${token}` }).expect(403);
    expect(response.body.errors[0].code).toBe('token_expired');
  });

  it('a refused client gets 403 client_refused within 1 s', async () => {
    const token = issueToken(api.databaseUrl, 'refused-test');
    await call({ 'User-Agent': 'e2e', Authorization: `Bearer ${token}` }).expect(200);
    expectCli(tokenCli(api.databaseUrl, 'refuse-client', 'refused-test'));
    expect(
      await eventually(
        async () => (await call({ 'User-Agent': 'e2e', Authorization: `Bearer ${token}` })).status === 403,
      ),
    ).toBe(true);
    const response = await call({ 'User-Agent': 'e2e', Authorization: `Bearer ${token}` });
    expect(response.body.errors[0].code).toBe('client_refused');
  });

  it('issue prints the token alone on the last line', () => {
    const { status, lines } = tokenCli(api.databaseUrl, 'issue', '--client', 'cli-test');
    expect(status).toBe(0);
    expect(lines.at(-1)).toMatch(/^[A-Za-z0-9_-]{43,}$/);
  });
});
