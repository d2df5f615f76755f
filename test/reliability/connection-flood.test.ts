import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { flood, FLOOD_ADDRESS, floodTarget } from '../support/socket-flood.ts';
import type { SpawnedServer } from '../support/spawn-server.ts';
import { describeInFullRun } from './support/full-run.ts';

const FLOOD_SOCKETS = 2000;
/** Past the keep-alive timeout (65 s): the span over which the first probe found no one served. */
const IDLE_FLOOD_MS = 70_000;
const SILENT_FLOOD_MS = 15_000;
/** A closed flood connection is opened again after this long, so the flood stays at its size. */
const REOPEN_AFTER_MS = 5_000;
const health = { 'User-Agent': 'ELB-HealthChecker/2.0' };

/** The flood, kept at `count` connections for as long as it runs: each one closed is opened again. */
function sustainedFlood(url: string, count: number, send: string): { stop(): void; opened(): number } {
  let running = true;
  let opened = 0;
  const sockets = new Set<Socket>();
  const open = async (howMany: number) => {
    if (!running) return;
    opened += howMany;
    for (const socket of await flood(url, howMany, send)) {
      if (!running) socket.destroy();
      sockets.add(socket);
      socket.once('close', () => {
        sockets.delete(socket);
        setTimeout(() => void open(1), REOPEN_AFTER_MS).unref();
      });
    }
  };
  void open(count);
  return {
    stop: () => {
      running = false;
      for (const socket of sockets) socket.destroy();
    },
    opened: () => opened,
  };
}

describeInFullRun('one address flooding the server, held for more than a minute', () => {
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
      'each sends one health check, then sits idle',
      IDLE_FLOOD_MS,
      `GET /services/v1/health HTTP/1.1\r\nHost: x\r\nUser-Agent: flood\r\n\r\n`,
    ],
    ['each sends nothing', SILENT_FLOOD_MS, ''],
  ])(
    `${FLOOD_SOCKETS} connections from ${FLOOD_ADDRESS}, %s, for %i ms: every probe from 127.0.0.1 answered within 1 s`,
    async (what, ms, send) => {
      const attack = sustainedFlood(server.url, FLOOD_SOCKETS, send);
      const times: number[] = [];
      const statuses = new Map<number, number>();
      try {
        // Let the flood's first 2,000 connections arrive before probing.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const started = Date.now();
        while (Date.now() - started < ms) {
          for (const [path, probeHeaders] of [
            ['/services/v1/health/ready', health],
            ['/services/v1/health', health],
            [order, headers],
          ] as const) {
            const begun = performance.now();
            const response = await fetch(`${server.url}${path}`, {
              headers: probeHeaders,
              signal: AbortSignal.timeout(5_000),
            }).catch(() => undefined);
            await response?.arrayBuffer();
            times.push(performance.now() - begun);
            const status = response?.status ?? 0;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } finally {
        attack.stop();
      }
      const sorted = times.slice().sort((a, b) => a - b);
      console.log(
        `connection flood (${what}, ${ms / 1000} s, ${attack.opened()} connections opened): ${times.length} probes, ` +
          `statuses ${[...statuses].map(([status, count]) => `${status}×${count}`).join(' ')}, ` +
          `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, slowest ${sorted.at(-1)!.toFixed(1)} ms`,
      );
      expect([...statuses.keys()]).toEqual([200]);
      expect(sorted.at(-1)!).toBeLessThan(1_000);
    },
    120_000,
  );
});
