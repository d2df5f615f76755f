import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { residentMiB } from '../../support/process-memory.ts';
import type { SpawnedServer } from '../../support/spawn-server.ts';
import { readEveryPage, serveLargeVisits } from '../../support/large-visits.ts';
import { testEngine } from '../../support/test-database.ts';
import { describeNeeding } from '../../support/describe-needing.ts';
import { JEMALLOC } from '../../support/system-packages.ts';

/** Visit reports as large as a body may carry (the field declares maxLength 1,000,000). */
const ROW_BYTES = 900 * 1024;
const ROWS = 60;
const READERS = 4;
const ROUNDS = 3;
/** How often the server checks (HEAP_RETURN_INTERVAL_MS), shorter than the default to keep the test short. */
const CHECK_MS = 500;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The server as `npm start` starts it. On SQLite the pages' rows are JavaScript strings, and a
 * collection returns them all. On PostgreSQL the driver reads each large row into Buffers that the
 * C allocator serves: glibc's malloc keeps part of them resident after they are freed (up to +58 MiB
 * four seconds after, even with MALLOC_MMAP_THRESHOLD_), jemalloc, which `npm start` preloads where
 * the machine has it, returns them; so on PostgreSQL this test needs libjemalloc2.
 */
function describeOnThisEngine(name: string, body: () => void): void {
  if (testEngine() === 'postgres') describeNeeding(JEMALLOC, `${name} (PostgreSQL, on jemalloc)`, body);
  else describe(`${name} (SQLite)`, body);
}

describeOnThisEngine('memory after a burst of large pages', () => {
  let server: SpawnedServer;
  let headers: Record<string, string>;
  beforeAll(async () => {
    ({ server, headers } = await serveLargeVisits({
      rows: ROWS,
      rowBytes: ROW_BYTES,
      env: { HEAP_RETURN_INTERVAL_MS: String(CHECK_MS) },
      npmStart: true,
    }));
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it('returns to where it was before the burst within a few seconds, while health checks keep coming', async () => {
    const pid = server.pid;
    // The writes' own garbage is returned first, in the same way.
    await pause(4 * CHECK_MS);
    const before = residentMiB(pid)!;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentMiB(pid) ?? 0)), 20);
    for (let round = 0; round < ROUNDS; round += 1)
      await Promise.all(
        Array.from({ length: READERS }, () => readEveryPage(`${server.url}/v1/visits?limit=500`, headers)),
      );
    clearInterval(sampler);
    // A load balancer's health checks, five a second, for eight checks' time.
    for (let check = 0; check < (8 * CHECK_MS) / 200; check += 1) {
      const health = await fetch(`${server.url}/services/v1/health`, { headers: { 'User-Agent': 'balancer' } });
      expect(health.status).toBe(200);
      await health.arrayBuffer();
      await pause(200);
    }
    const after = residentMiB(pid)!;
    console.log(
      `heap return: RSS ${before.toFixed(0)} MiB before ${READERS} readers × ${ROUNDS} rounds of ${ROWS} rows of ${ROW_BYTES / 1024} KiB, ` +
        `peak ${peak.toFixed(0)} MiB, ${after.toFixed(0)} MiB ${(8 * CHECK_MS) / 1000} s after`,
    );
    // The burst did grow the process (else this test would show nothing)…
    expect(peak - before).toBeGreaterThan(100);
    // …and what it grew is back with the system.
    expect(after - before).toBeLessThan(40);
  }, 180_000);
});
