import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { until } from '../../support/poll.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The request line logged for a request id (it is written once the response has been sent). */
async function lineOf(api: TestApi, requestId: string): Promise<Record<string, unknown>> {
  const find = () =>
    api.logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.request_id === requestId);
  const found = await until(
    async () => find(),
    (line) => line !== undefined,
    2000,
  );
  if (found === undefined) throw new Error(`no log line for request ${requestId}:\n${api.logLines.join('\n')}`);
  return found;
}

describe('request log, no proxy trusted', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  it('one JSON line per request with the id it answered in X-Request-Id, the client of the token and the route template', async () => {
    const created = await api.post('/v1/orders', { item: 'apple', quantity: 2 }).expect(201);
    const response = await api.get(`/v1/orders/${created.body.identity}`).set('User-Agent', 'log-test/2.0').expect(200);
    const id = response.headers['x-request-id']!;
    expect(id).toMatch(UUID);
    const line = await lineOf(api, id);
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: `/v1/orders/${created.body.identity}`,
      status: 200,
      client: 'e2e-tests',
      user_agent: 'log-test/2.0',
      route: '/v1/orders/:order_id',
      family: 'resource',
    });
    expect(new Date(line.time as string).toISOString()).toBe(line.time);
    expect(line.duration_ms).toBeGreaterThan(0);
    // Headers and body as written to the socket: more than the body alone.
    expect(line.response_bytes).toBeGreaterThan(Number(response.headers['content-length']));
    expect(line).not.toHaveProperty('query');
  });

  it("a client's X-Request-Id is not believed from a peer that is not a trusted proxy", async () => {
    const response = await api.get('/v1/orders').set('X-Request-Id', 'chosen-by-client').expect(200);
    expect(response.headers['x-request-id']).toMatch(UUID);
    expect((await lineOf(api, response.headers['x-request-id']!)).request_id).not.toBe('chosen-by-client');
  });

  it('a 4xx is an info line with its error code and no stack; a credential in the query string is redacted', async () => {
    const response = await api
      .raw()
      .get('/v1/orders?q=apple&access_token=not-for-logs')
      .set('User-Agent', 'log-test')
      .expect(400);
    const line = await lineOf(api, response.headers['x-request-id']!);
    expect(line).toMatchObject({
      level: 'info',
      status: 400,
      error_code: 'token_in_url',
      query: 'q=apple&access_token=[redacted]',
      path: '/v1/orders',
    });
    expect(line).not.toHaveProperty('err');
    expect(line).not.toHaveProperty('client');
    expect(JSON.stringify(api.logLines)).not.toContain('not-for-logs');
  });

  it('an unauthenticated call is logged without a client, with the code it got', async () => {
    const response = await api
      .raw()
      .get('/v1/orders')
      .set('User-Agent', 'log-test')
      .set('Authorization', 'Bearer wrong-token-value')
      .expect(401);
    const line = await lineOf(api, response.headers['x-request-id']!);
    expect(line).toMatchObject({ status: 401, error_code: 'invalid_token' });
    expect(line).not.toHaveProperty('client');
    expect(JSON.stringify(api.logLines)).not.toContain('wrong-token-value');
  });
});

describe('request log behind a trusted proxy', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
  });
  afterAll(async () => api.close());

  it.each([
    ['a well-formed id is kept and echoed', 'lb-7f3a:0001', 'lb-7f3a:0001'],
    ['an id with a line break is replaced', 'forged\n{"level":"info"}', undefined],
    ['an id longer than 128 characters is replaced', 'x'.repeat(129), undefined],
  ] as const)('%s', async (_name, sent, kept) => {
    // A line break cannot be sent in a header; the raw header carries what a proxy could forward.
    const value = sent.includes('\n') ? sent.replace('\n', ' ') : sent;
    const response = await api.get('/v1/orders').set('X-Request-Id', value).expect(200);
    const id = response.headers['x-request-id']!;
    if (kept === undefined) expect(id).toMatch(UUID);
    else expect(id).toBe(kept);
    expect((await lineOf(api, id)).request_id).toBe(id);
  });
});
