import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpawnedServer } from '../../support/spawn-server.ts';
import { editFile, serveCopiedProject } from '../../support/temp-project.ts';

describe('a deprecated version', () => {
  let served: Awaited<ReturnType<typeof serveCopiedProject>>;
  let server: SpawnedServer;
  let headers: Record<string, string>;
  beforeAll(async () => {
    served = await serveCopiedProject((root) =>
      editFile(root, 'definitions/orders.ts', (text) =>
        text.replace(
          'versions: { v1: {}, v2: {} }',
          "versions: { v1: { deprecated: { since: '2026-11-01', sunset: '2027-06-30', successor: 'v2' } }, v2: {} }",
        ),
      ),
    );
    ({ server, headers } = served);
  });
  afterAll(async () => served.stop());

  it('carries Deprecation, Sunset and a Link to the same path in its successor, on successes and errors', async () => {
    await fetch(`${server.url}/v1/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ item: 'old', quantity: 1 }),
    });
    for (const [path, status] of [
      ['/v1/orders/1', 200],
      ['/v1/orders/999', 404],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, { headers });
      expect(response.status).toBe(status);
      expect(response.headers.get('deprecation')).toBe(`@${Date.parse('2026-11-01') / 1000}`);
      expect(response.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
      expect(response.headers.get('link')).toBe(
        `<${server.url}${path.replace('/v1/', '/v2/')}>; rel="successor-version"`,
      );
    }
  });

  it('is marked deprecated in its OpenAPI document', async () => {
    const document = (await (await fetch(`${server.url}/services/v1/openapi`, { headers })).json()) as {
      paths: Record<string, Record<string, { deprecated?: boolean }>>;
    };
    expect(document.paths['/v1/orders/{order_id}']?.get?.deprecated).toBe(true);
    expect(document.paths['/v1/trades/{trade_id}']?.get?.deprecated).toBeUndefined();
  });

  it('leaves the successor and the other collections alone', async () => {
    for (const path of ['/v2/orders', '/v1/trades']) {
      const response = await fetch(`${server.url}${path}`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('deprecation')).toBeNull();
      expect(response.headers.get('sunset')).toBeNull();
    }
  });
});
