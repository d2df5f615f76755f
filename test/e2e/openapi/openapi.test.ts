import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiChecker } from '../../support/openapi-check.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';

const documentOf = (version: string) =>
  fileURLToPath(new URL(`../../../generated/openapi/${version}.json`, import.meta.url));

describe('the generated OpenAPI documents', () => {
  it.each([['v1'], ['v2']])('%s passes an independent OpenAPI 3.1 validator', async (version) => {
    const validator = new Validator();
    const result = await validator.validate(documentOf(version));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('the checker catches responses the document does not describe', () => {
    const checker = new OpenApiChecker(documentOf('v1'));
    const headers = {
      'x-pretty-print': 'true',
      'x-ratelimit-limit': '1',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1',
      etag: '"a"',
      'e-tag': '"a"',
      'last-modified': '2026-11-22T15:40:00Z',
    };
    expect(
      checker.check('get', '/v1/orders/1', {
        status: 200,
        headers,
        body: { order_id: 1, item: 'x', colour: 'red' },
      })[0],
    ).toMatch(/body does not match/);
    expect(checker.check('get', '/v1/orders/1', { status: 200, headers: {}, body: { order_id: 1 } })[0]).toMatch(
      /missing header/,
    );
    // A representation always has its identifier, created_at and required fields; X-Result-Fields asks for fewer.
    const createdOnly = { created_at: '2026-11-22T15:40:00Z' };
    expect(checker.check('get', '/v1/orders/1', { status: 200, headers, body: createdOnly })[0]).toMatch(
      /must have required property 'order_id'/,
    );
    expect(checker.check('get', '/v1/orders/1', { status: 200, headers, body: createdOnly }, 'created_at')).toEqual([]);
    expect(checker.check('get', '/v1/orders/1', { status: 200, headers, body: createdOnly }, 'item')[0]).toMatch(
      /must have required property 'item'/,
    );
    expect(
      checker.check('get', '/v1/orders/1', {
        status: 400,
        headers,
        body: { message: 'x', errors: [{ code: 'Bad Code', message: 'x' }] },
      })[0],
    ).toMatch(/body does not match/);
    expect(checker.check('get', '/v1/orders/1', { status: 418, headers, body: {} })).toEqual([
      'GET /v1/orders/1 → 418: status not declared',
    ]);
    expect(checker.check('get', '/v1/nothing', { status: 200, headers, body: {} })).toEqual([
      'GET /v1/nothing → 200: path not in the document',
    ]);
  });

  describe('served, and describing every response the server gives', () => {
    let api: TestApi;
    const checkers = { v1: new OpenApiChecker(documentOf('v1')), v2: new OpenApiChecker(documentOf('v2')) };
    const problems: string[] = [];

    /** Sends a request and checks its response against the document of its version. */
    async function send(
      method: 'get' | 'post' | 'put' | 'patch' | 'delete',
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      const version = /\/(v\d+)\//.exec(path)?.[1] as 'v1' | 'v2';
      let test = method === 'get' || method === 'delete' ? api[method](path) : api[method](path, body);
      test = test.set(headers);
      const response = await test;
      problems.push(...checkers[version].check(method, path, response));
      return response;
    }

    beforeAll(async () => {
      api = await startApi();
    });
    afterAll(async () => api.close());

    it('GET /services/{v}/openapi answers the same document the generator wrote', async () => {
      const response = await api.get('/services/v2/openapi').expect(200);
      expect(response.body.openapi).toBe('3.1.0');
      expect(Object.keys(response.body.paths)).toContain('/v2/accounts/{account_id}');
      // servers names this server, so a tool given the served document needs no base URL by hand.
      expect(response.body.servers).toEqual([{ url: api.url, description: 'This server (its BASE_URL).' }]);
      const { servers: _generated, ...rest } = JSON.parse(readFileSync(documentOf('v2'), 'utf8'));
      const { servers: _served, ...served } = response.body;
      expect(served).toEqual(rest);
    });

    it('the served document names BASE_URL in servers when one is set', async () => {
      const behindProxy = await startApi({ env: { BASE_URL: 'https://api.example.test/base' } });
      try {
        const response = await behindProxy.get('/services/v1/openapi').expect(200);
        expect(response.body.servers).toEqual([
          { url: 'https://api.example.test/base', description: 'This server (its BASE_URL).' },
        ]);
      } finally {
        await behindProxy.close();
      }
    });

    it('every response of a broad run through all three families matches the document', async () => {
      for (const version of ['v1', 'v2']) {
        const order = await send('post', `/${version}/orders`, { item: 'apples', quantity: 2 });
        const orderId = order.body.identity;
        await send('get', `/${version}/orders`);
        await send('get', `/${version}/orders/(list)`);
        await send('get', `/${version}/orders?item=apples&limit=5`);
        await send('get', `/${version}/orders/${orderId}`);
        await send('get', `/${version}/orders/${orderId}`, undefined, { 'If-None-Match': order.headers.etag ?? '"x"' });
        await send('put', `/${version}/orders/${orderId}`, { item: 'pears', quantity: 3 });
        await send('patch', `/${version}/orders/${orderId}`, { quantity: 4 });
        await send('post', `/${version}/orders`, { item: '' });
        await send('get', `/${version}/orders/999999`);
        await send('get', `/${version}/orders?limit=0`);
        const trade = await send('post', `/${version}/trades`, { trade_name: 'harvest', order: orderId });
        await send('get', `/${version}/trades/${trade.body.identity}`, undefined, { 'X-Expansion-Fields': 'true' });
        await send('get', `/${version}/trades/${trade.body.identity}`);
        await send('post', `/${version}/trades`, { trade_name: 'ghost', order: 424242 });
        await send('delete', `/${version}/orders/${orderId}`);
        const user = await send('post', `/${version}/users`, { user_name: `ann-${version}` });
        await send('post', `/${version}/users`, { user_name: `ann-${version}` });
        await send('put', `/${version}/users/${user.body.identity}/profiles`, { full_name: 'Ann A', state: 'active' });
        await send('get', `/${version}/users/${user.body.identity}/profiles`);
        const account = await send(
          'post',
          `/${version}/accounts`,
          version === 'v1'
            ? { user_name: 'ann', e_mail: 'ann@example.test', state: 'active', title: 'Dr' }
            : { user_name: 'ann', e_mail: 'ann@example.test', profile: { state: 'active', title: 'Dr' } },
        );
        await send('get', `/${version}/accounts/${account.body.identity}`);
        await send('get', `/services/${version}/search?q=harvest&category=trades`);
        await send('get', `/services/${version}/search?q=harvest`);
        const job = await send('put', `/services/${version}/queued/jobs`, { type: 'reindex' });
        await send('get', `/services/${version}/queued/jobs/${job.body.job_id}`);
        await send('put', `/services/${version}/queued/jobs`, { type: 'nothing' });
        await send('put', `/settings/${version}/gui/lang`, { lang: 'fr-fr' });
        await send('get', `/settings/${version}/gui/lang`);
        await send('put', `/settings/${version}/gui/lang`, { lang: 'not a tag' });
      }
      expect(problems).toEqual([]);
    });
  });
});
