import { newTestDatabase } from '../../support/test-database.ts';
import { describe, expect, it } from 'vitest';
import { startApi } from '../../support/start-api.ts';
import { spawnServer } from '../../support/spawn-server.ts';
import { issueToken } from '../../support/token-cli.ts';

describe('storage', () => {
  it('two server processes on one DATABASE_URL serve the same data', async () => {
    const databaseUrl = await newTestDatabase();
    const headers = {
      'User-Agent': 'two-processes',
      Authorization: `Bearer ${issueToken(databaseUrl, 'two')}`,
      'Content-Type': 'application/json',
    };
    const [a, b] = await Promise.all([
      spawnServer({ DATABASE_URL: databaseUrl }),
      spawnServer({ DATABASE_URL: databaseUrl }),
    ]);
    try {
      const created = await fetch(`${a.url}/v1/orders`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ item: 'shared', quantity: 1 }),
      });
      expect(created.status).toBe(201);
      const { identity } = (await created.json()) as { identity: number };
      expect(await (await fetch(`${b.url}/v1/orders/${identity}`, { headers })).json()).toMatchObject({
        item: 'shared',
      });
      await fetch(`${b.url}/v1/orders/${identity}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ quantity: 5 }),
      });
      expect(await (await fetch(`${a.url}/v1/orders/${identity}`, { headers })).json()).toMatchObject({ quantity: 5 });
      // Concurrent writes from both processes all land, with distinct ids.
      const writes = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          fetch(`${index % 2 === 0 ? a.url : b.url}/v1/orders`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ item: `w${index}`, quantity: 1 }),
          }).then((response) => response.json() as Promise<{ identity: number }>),
        ),
      );
      expect(new Set(writes.map((write) => write.identity)).size).toBe(20);
      const list = await fetch(`${a.url}/v1/orders?limit=100`, { headers });
      expect(list.headers.get('x-total-count')).toBe('21');
    } finally {
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      await Promise.all([a.exited, b.exited]);
    }
  });

  it('BASE_URL is the base of every URI in bodies and headers', async () => {
    const api = await startApi({ env: { BASE_URL: 'https://api.example.test/' } });
    try {
      const order = await api.post('/v1/orders', { item: 'based', quantity: 1 }).expect(201);
      expect(order.body.uri).toBe(`https://api.example.test/v1/orders/${order.body.identity}`);
      expect(order.headers.location).toBe(order.body.uri);
      const trade = await api.post('/v1/trades', { trade_name: 'based', order: order.body.uri }).expect(201);
      expect((await api.get(`/v1/trades/${trade.body.identity}`).expect(200)).body.order).toBe(order.body.uri);
      expect((await api.get('/v1/orders').expect(200)).headers.link).toContain('<https://api.example.test/v1/orders?');
    } finally {
      await api.close();
    }
  });
});
