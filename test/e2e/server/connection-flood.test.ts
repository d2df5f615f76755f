import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { spawnServer, type SpawnedServer } from '../../support/spawn-server.ts';
import { newTestDatabase } from '../../support/test-database.ts';
import { until } from '../../support/poll.ts';
import { flood, FLOOD_ADDRESS, floodTarget } from '../../support/socket-flood.ts';

const FLOOD_SOCKETS = 2000;
const health = { 'User-Agent': 'ELB-HealthChecker/2.0' };

// The server in a process of its own, as an attacker meets it: the flood's sockets live in this one.
describe('one address flooding the server with idle connections', () => {
  let server: SpawnedServer;
  let headers: Record<string, string>;
  let order: string;
  beforeAll(async () => {
    ({ server, headers, order } = await floodTarget());
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it.each([
    [
      'each sends one health check, then sits idle on its keep-alive connection',
      `GET /services/v1/health HTTP/1.1\r\nHost: x\r\nUser-Agent: flood\r\n\r\n`,
    ],
    ['each sends nothing at all', ''],
  ])(
    `${FLOOD_SOCKETS} connections from ${FLOOD_ADDRESS}, %s: every probe from another address is answered within 1 s`,
    async (_, send) => {
      const sockets = await flood(server.url, FLOOD_SOCKETS, send);
      const held = async () => sockets.filter((socket) => socket.readyState === 'open').length;
      try {
        // The flood is under way once the server has taken or refused every one of its connections:
        // the flooding address then holds no more than its share of them.
        expect(await until(held, (count) => count <= 128, 15_000)).toBeLessThanOrEqual(128);
        for (let probe = 0; probe < 10; probe += 1) {
          for (const call of [
            () => request(server.url).get('/services/v1/health/ready').set(health),
            () => request(server.url).get('/services/v1/health').set(health),
            () => request(server.url).get(order).set(headers),
          ]) {
            const started = performance.now();
            const response = await call().timeout(5000);
            expect(response.status).toBe(200);
            expect(performance.now() - started).toBeLessThan(1000);
          }
        }
        expect(await held()).toBeGreaterThan(0);
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    },
  );

  it('a connection refused for its address gets 503 too_many_connections with Retry-After and the error body', async () => {
    const sockets = await flood(server.url, 200, '');
    try {
      const refusal = await new Promise<string>((resolve) => {
        const { hostname, port } = new URL(server.url);
        let text = '';
        const socket = connect({ host: hostname, port: Number(port), localAddress: FLOOD_ADDRESS });
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
        socket.on('error', () => undefined);
      });
      expect(refusal).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(refusal).toMatch(/\r\nRetry-After: 1\r\n/);
      expect(refusal).toMatch(/\r\nConnection: close\r\n/);
      expect(JSON.parse(refusal.slice(refusal.indexOf('\r\n\r\n') + 4)).errors[0].code).toBe('too_many_connections');
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('near MAX_CONNECTIONS', () => {
  it('the connections idle longest are closed first, so a new client is served', async () => {
    const server = await spawnServer({
      DATABASE_URL: await newTestDatabase(),
      JOB_WORKERS: '0',
      MAX_CONNECTIONS: '20',
    });
    const { hostname, port } = new URL(server.url);
    const idle: Socket[] = [];
    try {
      // 18 keep-alive connections, each idle after one health check: nine tenths of the bound.
      for (let index = 0; index < 18; index += 1) {
        const socket = connect({ host: hostname, port: Number(port) });
        await new Promise<void>((resolve) => {
          socket.once('data', () => resolve());
          socket.write(`GET /services/v1/health HTTP/1.1\r\nHost: x\r\nUser-Agent: idle\r\n\r\n`);
        });
        idle.push(socket);
      }
      const closed = idle.map(
        (socket) =>
          new Promise<boolean>((resolve) => {
            socket.once('close', () => resolve(true));
            setTimeout(() => resolve(false), 3000).unref();
          }),
      );
      // One more passes nine tenths of 20: the connection idle longest makes room, and only it.
      await request(server.url)
        .get('/services/v1/health')
        .set({ ...health, Connection: 'close' })
        .expect(200);
      expect(await closed[0]).toBe(true);
      expect(idle.slice(1).every((socket) => socket.readyState === 'open')).toBe(true);
    } finally {
      for (const socket of idle) socket.destroy();
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
