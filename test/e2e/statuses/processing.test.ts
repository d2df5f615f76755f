import { describe, expect, it } from 'vitest';
import { rawExchange } from '../../support/raw-http.ts';
import { documentProblems, useCheckedApi } from '../../support/checked-client.ts';

describe('102 Processing while a slow operation runs (GET /services/{v}/delay, 102 after 500 ms)', () => {
  const { api, send } = useCheckedApi({ PROCESSING_INTERVAL_MS: '200' });

  const rawGet = (path: string, httpVersion = '1.1') =>
    rawExchange(
      api().url,
      [
        `GET ${path} HTTP/${httpVersion}\r\nHost: ${new URL(api().url).host}\r\nUser-Agent: raw-test\r\nAuthorization: ${api().headers.Authorization}\r\nConnection: close\r\n\r\n`,
      ],
      10_000,
    );

  it('a raw connection sees 102 interim responses, then the final 200', async () => {
    const exchange = await rawGet('/services/v1/delay?ms=1400');
    const statuses = exchange.responses.map((response) => response.status);
    // First after 500 ms, then every 200 ms until 1,400 ms: about five; timers under load may drop one or two.
    expect(statuses.length).toBeGreaterThanOrEqual(3);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.slice(0, -1).every((status) => status === 102)).toBe(true);
    expect(statuses.filter((status) => status === 102).length).toBeLessThanOrEqual(6);
    expect(JSON.parse(exchange.responses.at(-1)!.body)).toEqual({ waited_ms: 1400 });
    expect(exchange.text).toMatch(/^HTTP\/1\.1 102 Processing\r\n\r\n/);
    // Each interim response and the final one are statuses the document lists for this operation.
    const [interim, final] = [exchange.responses[0]!, exchange.responses.at(-1)!];
    expect(documentProblems('get', '/services/v1/delay', { ...interim, body: undefined })).toEqual([]);
    expect(documentProblems('get', '/services/v1/delay', { ...final, body: JSON.parse(final.body) })).toEqual([]);
  });

  it('a request shorter than the threshold gets no interim response', async () => {
    const exchange = await rawGet('/services/v1/delay?ms=100');
    expect(exchange.responses.map((response) => response.status)).toEqual([200]);
  });

  it('an HTTP/1.0 client, which cannot read interim responses, gets none', async () => {
    const exchange = await rawGet('/services/v1/delay?ms=900', '1.0');
    expect(exchange.responses.map((response) => response.status)).toEqual([200]);
  });

  it('a client that ignores interim responses (fetch, supertest) sees only the final answer', async () => {
    const viaFetch = await fetch(`${api().url}/services/v2/delay?ms=900`, { headers: api().headers });
    expect(viaFetch.status).toBe(200);
    expect(await viaFetch.json()).toEqual({ waited_ms: 900 });
    const viaSupertest = await send('get', '/services/v2/delay?ms=900');
    expect(viaSupertest.status).toBe(200);
    expect(viaSupertest.body).toEqual({ waited_ms: 900 });
  });

  it('a bad query is refused at once with the error body', async () => {
    const response = await send('get', '/services/v1/delay?ms=60000');
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ field: 'ms' });
  });
});
