import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { rawExchange } from '../../support/raw-http.ts';

describe('the Host header', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { JOB_WORKERS: '0' } });
  });
  afterAll(async () => api.close());

  const health = (version: string, hosts: readonly string[]) =>
    `GET /services/v1/health HTTP/${version}\r\n${hosts.map((host) => `Host: ${host}\r\n`).join('')}User-Agent: raw\r\nConnection: close\r\n\r\n`;

  it.each([
    ['HTTP/1.1 without Host', health('1.1', []), 'missing_host'],
    ['two Host headers', health('1.1', ['a.example', 'b.example']), 'duplicate_header'],
  ])("%s: 400 with the conventions' error body, naming Host, and the Server header", async (_, request, code) => {
    const { responses } = await rawExchange(api.url, [request]);
    const [response] = responses;
    expect(response?.status).toBe(400);
    expect(response?.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(response?.headers.server).toBe('conventional-api');
    expect(JSON.parse(response!.body)).toEqual({
      message: 'Bad Request',
      errors: [{ code, message: expect.any(String), field: 'Host' }],
    });
  });

  it('HTTP/1.0 needs none; one Host is served', async () => {
    expect((await rawExchange(api.url, [health('1.0', [])])).responses[0]?.status).toBe(200);
    expect((await rawExchange(api.url, [health('1.1', ['a.example'])])).responses[0]?.status).toBe(200);
  });
});
