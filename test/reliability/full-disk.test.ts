import { afterAll, expect, it } from 'vitest';
import { until } from '../support/poll.ts';
import { residentMiB } from '../support/process-memory.ts';
import { mountSmallDisk } from '../support/small-disk.ts';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts';
import { issueToken } from '../support/token-cli.ts';
import { describeInFullRun, fullReliabilityRun } from './support/full-run.ts';

/** Longer than the 31–67 s the job worker once took to exhaust its heap on a full disk. */
const WATCH_MS = 75_000;
const health = { 'User-Agent': 'ELB-HealthChecker/2.0' };

// Mounted in the full run only: npm test collects this file but runs none of it.
const disk = fullReliabilityRun ? mountSmallDisk(8) : 'not the full run';

async function stop(server: SpawnedServer): Promise<number | null> {
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  return server.exited;
}

/** How long a GET took and what it answered. */
async function timed(url: string, headers: Record<string, string>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
  await response?.arrayBuffer();
  return { status: response?.status ?? 0, ms: performance.now() - started };
}

describeInFullRun('a full disk with a queued job', () => {
  if (typeof disk === 'string') {
    it.skip(`skipped: ${disk}`, () => undefined);
    return;
  }
  afterAll(() => {
    disk.free();
    disk.unmount();
  });

  it(`a server with job workers restarted on the full disk stays up for ${WATCH_MS / 1000} s, small, serving reads; restarted again it serves reads; once freed the job runs`, async () => {
    const databaseUrl = `sqlite:${disk.path}/jobs.db`;
    const headers = { 'User-Agent': 'full-disk-probe', Authorization: `Bearer ${issueToken(databaseUrl, 'probe')}` };
    const first = await spawnServer({ DATABASE_URL: databaseUrl, JOB_WORKERS: '0' });
    const post = (path: string, body: unknown, method = 'POST') =>
      fetch(`${first.url}${path}`, {
        method,
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const order = (await post('/v1/orders', { item: 'kept', quantity: 1 })).headers.get('location')!;
    const job = (await (await post('/services/v1/queued/jobs', { type: 'reindex' }, 'PUT')).json()) as {
      job_id: number;
    };
    expect(await stop(first)).toBe(0);
    disk.fill();

    // Job workers on: the queued job is claimed at once, and its claim cannot be stored.
    let server = await spawnServer({ DATABASE_URL: databaseUrl });
    const orderPath = new URL(order).pathname;
    const rss: number[] = [];
    const slowest = { read: 0, readiness: 0 };
    const readiness: number[] = [];
    const started = Date.now();
    while (Date.now() - started < WATCH_MS) {
      const read = await timed(`${server.url}${orderPath}`, headers);
      const ready = await timed(`${server.url}/services/v1/health/ready`, health);
      expect(read.status).toBe(200);
      readiness.push(ready.status);
      slowest.read = Math.max(slowest.read, read.ms);
      slowest.readiness = Math.max(slowest.readiness, ready.ms);
      const resident = residentMiB(server.child.pid!);
      expect(resident, 'the server process is still running').toBeDefined();
      rss.push(resident!);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const warnings = server.output.filter((line) => line.includes('"level":"warn"') && line.includes('job queue'));
    console.log(
      `full disk: ${WATCH_MS / 1000} s with a queued job and job workers: ${rss.length} rounds, process alive, ` +
        `RSS ${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)} MiB, slowest GET one ${slowest.read.toFixed(0)} ms, ` +
        `slowest readiness ${slowest.readiness.toFixed(0)} ms (${readiness.filter((status) => status === 503).length}×503 of ${readiness.length}), ` +
        `${warnings.length} job-queue warning lines`,
    );
    expect(server.child.exitCode).toBeNull();
    expect(Math.max(...rss) - Math.min(...rss)).toBeLessThan(100);
    expect(slowest.read).toBeLessThan(1_000);
    expect(slowest.readiness).toBeLessThan(1_000);
    expect(readiness.every((status) => status === 503)).toBe(true);
    expect(warnings.length).toBeGreaterThan(0);
    // Backing off: a few warnings over the minute, not one per attempt.
    expect(warnings.length).toBeLessThan(20);

    // Restarted again, the disk still full: it starts and serves reads.
    expect(await stop(server)).toBe(0);
    server = await spawnServer({ DATABASE_URL: databaseUrl });
    try {
      expect((await timed(`${server.url}${orderPath}`, headers)).status).toBe(200);
      disk.free();
      const state = await until(
        async () =>
          (
            (await (await fetch(`${server.url}/services/v1/queued/jobs/${job.job_id}`, { headers })).json()) as {
              state: string;
            }
          ).state,
        (value) => value === 'succeeded',
        45_000,
      );
      expect(state).toBe('succeeded');
    } finally {
      await stop(server);
    }
  }, 180_000);
});
