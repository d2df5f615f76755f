import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_HEADERS, DEFAULT_MAX_QUERY_PARAMETERS } from '../../../runtime/index.ts';
import { sendRaw } from '../../reliability/support/raw-http.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';

/** How many headers and query parameters one request may carry is bounded. */
describe.each([
  ['by default', {}, DEFAULT_MAX_HEADERS, DEFAULT_MAX_QUERY_PARAMETERS],
  ['as configured (MAX_HEADERS, MAX_QUERY_PARAMETERS)', { MAX_HEADERS: '12', MAX_QUERY_PARAMETERS: '3' }, 12, 3],
])('request bounds %s', (_name, env: Record<string, string>, maxHeaders: number, maxParameters: number) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env });
    await api.post('/v1/orders', { item: 'bounded', quantity: 1 }).expect(201);
  });
  afterAll(async () => api.close());

  /** The client's own headers and `extra` more, `X-1`..., on GET `path`. */
  const get = (path: string, extra = 0) => {
    const headers: Record<string, string> = {
      Host: new URL(api.url).host,
      Connection: 'close',
      'User-Agent': 'bounds-test',
      Authorization: api.headers.Authorization!,
      Accept: 'application/json',
    };
    for (let index = 1; index <= extra; index += 1) headers[`X-${index}`] = '1';
    return sendRaw(api.url, { method: 'GET', path, headers });
  };
  const entryOf = (body: Buffer) =>
    (JSON.parse(body.toString('utf8')) as { errors: Array<{ code: string; field?: string }> }).errors[0];
  const ownHeaders = 5;

  it(`${maxHeaders} header fields are served`, async () => {
    expect((await get('/v1/orders/1', maxHeaders - ownHeaders)).status).toBe(200);
  });

  it(`${maxHeaders + 1} header fields: 400 too_many_headers naming the first one past the bound, with the error body`, async () => {
    const response = await get('/v1/orders/1', maxHeaders - ownHeaders + 1);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(entryOf(response.body)).toMatchObject({
      code: 'too_many_headers',
      field: `X-${maxHeaders - ownHeaders + 1}`,
    });
  });

  it('500 header fields (well under the 16 KiB and 2,000 fields Node takes): the same 400', async () => {
    const response = await get('/v1/orders/1', 500);
    expect(response.status).toBe(400);
    expect(entryOf(response.body)?.code).toBe('too_many_headers');
  });

  // Repeated filters of a collection: each is a parameter (the list answers them itself).
  const query = (count: number) => Array.from({ length: count }, (_, index) => `p${index + 1}=1`).join('&');

  it(`${maxParameters} query parameters pass the bound (the list then names an unknown one)`, async () => {
    const response = await get(`/v1/orders?${query(maxParameters)}`);
    expect(entryOf(response.body)?.code).not.toBe('too_many_parameters');
  });

  it('counts parameters, not separators: empty ones between many & are not parameters', async () => {
    const response = await get(`/v1/orders?${'&'.repeat(maxParameters * 2)}limit=1${'&'.repeat(maxParameters)}`);
    expect(response.status).toBe(200);
  });

  it(`${maxParameters + 1} query parameters: 400 too_many_parameters naming the first one past the bound`, async () => {
    const response = await get(`/v1/orders?${query(maxParameters + 1)}`);
    expect(response.status).toBe(400);
    expect(entryOf(response.body)).toMatchObject({ code: 'too_many_parameters', field: `p${maxParameters + 1}` });
  });
});
