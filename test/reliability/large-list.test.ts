import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_PAGE_BYTES } from '../../runtime/resources/page-budget.ts';
import { residentMiB } from '../support/process-memory.ts';
import type { SpawnedServer } from '../support/spawn-server.ts';
import { readEveryPage, serveLargeVisits } from '../support/large-visits.ts';
import { describeInFullRun } from './support/full-run.ts';

/** Rows as large as a body may carry (a visit's report declares maxLength 1,000,000). */
const ROW_BYTES = 900 * 1024;
/** 500 of them: half a gigabyte of values, what `limit=500` once sent in one response. */
const ROWS = 500;
const READERS = 4;

describeInFullRun('the half-gigabyte list', () => {
  let server: SpawnedServer;
  let headers: Record<string, string>;
  beforeAll(async () => {
    ({ server, headers } = await serveLargeVisits({ rows: ROWS, rowBytes: ROW_BYTES, together: 4 }));
  }, 300_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it(`${READERS} clients each reading all ${ROWS} rows at limit=500, twice: pages of about ${MAX_PAGE_BYTES / 1024 / 1024} MiB, bounded memory that a second round does not grow, GET one served beside`, async () => {
    const pid = server.child.pid!;
    const baseline = residentMiB(pid)!;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, residentMiB(pid) ?? 0)), 50);
    let largestPage = 0;
    let pages = 0;
    let reading = true;
    const besideMs: number[] = [];
    // GET one, every 100 ms, the whole time: the client the list must not hold up.
    const beside = (async () => {
      while (reading) {
        const started = performance.now();
        const response = await fetch(`${server.url}/v1/pets/1`, { headers });
        await response.arrayBuffer();
        expect(response.status).toBe(200);
        besideMs.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const readEverything = () =>
      Promise.all(
        Array.from({ length: READERS }, async () => {
          let rows = 0;
          await readEveryPage(`${server.url}/v1/visits?limit=500`, headers, (body) => {
            largestPage = Math.max(largestPage, body.byteLength);
            pages += 1;
            rows += (JSON.parse(Buffer.from(body).toString('utf8')) as unknown[]).length;
          });
          return rows;
        }),
      );
    const started = Date.now();
    expect(await readEverything()).toEqual(Array.from({ length: READERS }, () => ROWS));
    const firstRound = { ms: Date.now() - started, peak };
    // Ordinary traffic alone for a while: what the first round left behind.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const between = residentMiB(pid)!;
    expect(await readEverything()).toEqual(Array.from({ length: READERS }, () => ROWS));
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    reading = false;
    await beside;
    clearInterval(sampler);
    const after = residentMiB(pid)!;
    const slowestBeside = Math.max(...besideMs);
    console.log(
      `half-gigabyte list: ${READERS} readers × ${ROWS} rows of ${ROW_BYTES / 1024} KiB, twice; first round ${(firstRound.ms / 1000).toFixed(1)} s, ` +
        `${pages} pages in all, largest ${(largestPage / 1024 / 1024).toFixed(1)} MiB; RSS ${baseline.toFixed(0)} MiB before, ` +
        `peak ${firstRound.peak.toFixed(0)} MiB in the first round, ${between.toFixed(0)} MiB 10 s after it, peak ${peak.toFixed(0)} MiB over both, ` +
        `${after.toFixed(0)} MiB 10 s after the second; GET one beside: ${besideMs.length} answered, slowest ${slowestBeside.toFixed(0)} ms`,
    );
    expect(largestPage).toBeLessThan(MAX_PAGE_BYTES + ROW_BYTES + 64 * 1024);
    // Once: 1.98 GB for one reader, 5.6 GB for four.
    expect(firstRound.peak).toBeLessThan(baseline + 600);
    // What the first round leaves is reused by the second, not added to.
    expect(peak).toBeLessThan(firstRound.peak + 100);
    // And it is returned once the readers are gone, GET one going on (HEAP_RETURN_INTERVAL_MS).
    expect(between).toBeLessThan(baseline + 50);
    expect(after).toBeLessThan(baseline + 50);
    // Once 8.6 s; the pages are serialised on the event loop, so on a loaded machine a GET one may wait a few of them.
    expect(slowestBeside).toBeLessThan(3_000);
  }, 600_000);
});
