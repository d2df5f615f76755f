import { afterAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { api as generatedApi } from '../../../generated/api.ts';
import { serve } from '../../../runtime/server/serve.ts';
import { captureLogs } from '../../support/log-capture.ts';
import { mountSmallDisk } from '../../support/small-disk.ts';
import { startApi } from '../../support/start-api.ts';
import { testEngine } from '../../support/test-database.ts';
import { issueToken, tokenCli } from '../../support/token-cli.ts';
import { until } from '../../support/poll.ts';

// A SQLite file on a tmpfs of its own, filled to the last byte while the server runs.
const disk =
  testEngine() === 'sqlite'
    ? mountSmallDisk(8)
    : "the full disk is SQLite's; PostgreSQL's outage is test/e2e/faults/postgres-outage.test.ts";
const skipped = typeof disk === 'string' ? ` (skipped: ${disk})` : '';
const health = { 'User-Agent': 'ELB-HealthChecker/2.0' };

/** 503 dependency_unavailable naming the store and its full disk, with Retry-After. */
function expectDiskFull(response: request.Response): void {
  expect(response.status).toBe(503);
  expect(response.headers['retry-after']).toMatch(/^\d+$/);
  expect(response.headers['content-type']).toBe('application/json;charset=UTF-8');
  expect(response.body).toEqual({
    message: 'Service Unavailable',
    errors: [
      { code: 'dependency_unavailable', message: 'store: no disk space left; try again later', resource: 'store' },
    ],
  });
}

describe.skipIf(typeof disk === 'string')(`a full disk under SQLite${skipped}`, () => {
  const small = disk as Exclude<typeof disk, string>;
  afterAll(() => small.unmount());

  it('writes answer 503 dependency_unavailable with Retry-After, never 500, and nothing acknowledged is lost; reads are served; readiness says so alike with or without a token', async () => {
    const databaseUrl = `sqlite:${small.path}/full.db`;
    const api = await startApi({ databaseUrl, env: { JOB_WORKERS: '0' } });
    try {
      const acknowledged: { uri: string; item: string }[] = [];
      const first = await api.post('/v1/orders', { item: 'before the disk filled', quantity: 1 }).expect(201);
      acknowledged.push({ uri: first.headers.location!, item: 'before the disk filled' });
      small.fill();
      // The WAL may still have room inside it: writes succeed, durably, until it has none.
      let refused: request.Response | undefined;
      // Items as long as an indexed string may be (655 characters), so each write takes room.
      for (let attempt = 0; attempt < 3000 && refused === undefined; attempt += 1) {
        const item = `order ${attempt} ${'x'.repeat(600)}`;
        const response = await api.post('/v1/orders', { item, quantity: 1 });
        if (response.status === 201) acknowledged.push({ uri: response.headers.location!, item });
        else refused = response;
      }
      expectDiskFull(refused!);
      expectDiskFull(await api.put('/settings/v1/gui/lang', { lang: 'fr-FR' }));
      expectDiskFull(await api.put('/services/v1/queued/jobs', { type: 'reindex' }));
      // A token is acknowledged by being printed: none is, when it cannot be stored.
      const issued = tokenCli(databaseUrl, 'issue', '--client', 'on-a-full-disk');
      expect(issued.status).toBe(1);
      expect(issued.lines.join('')).toBe('');
      await api.get(new URL(first.headers.location!).pathname).expect(200);
      const bare = await api.raw().get('/services/v1/health/ready').set(health);
      const withToken = await api
        .raw()
        .get('/services/v1/health/ready')
        .set({ ...health, Authorization: api.headers.Authorization! });
      expectDiskFull(bare);
      expect(withToken.status).toBe(bare.status);
      expect(withToken.body).toEqual(bare.body);
      small.free();
      await api.get('/services/v1/health/ready').expect(200);
      await api.post('/v1/orders', { item: 'after space was freed', quantity: 1 }).expect(201);
      for (const { uri, item } of acknowledged)
        expect((await api.get(new URL(uri).pathname).expect(200)).body.item).toBe(item);
    } finally {
      await api.close();
      small.free();
    }
  });

  it('a restart on a full disk with a job queued serves reads, keeps the job, stays small, and runs the job once there is room', async () => {
    const databaseUrl = `sqlite:${small.path}/restart.db`;
    const token = issueToken(databaseUrl, 'full-disk');
    const headers = { 'User-Agent': 'e2e-tests/1.0', Authorization: `Bearer ${token}` };
    const before = await serve(generatedApi, {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      JOB_WORKERS: '0',
    });
    const order = await request(before.url)
      .post('/v1/orders')
      .set(headers)
      .send({ item: 'kept', quantity: 1 })
      .expect(201);
    const job = await request(before.url)
      .put('/services/v1/queued/jobs')
      .set(headers)
      .send({ type: 'reindex' })
      .expect(202);
    await before.stop();
    small.fill();
    const { logger, lines } = captureLogs();
    // Job workers on: the queued job is claimed at once, and its claim cannot be stored.
    const running = await serve(generatedApi, { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl }, { logger });
    try {
      const heapBefore = process.memoryUsage().heapUsed;
      for (let round = 0; round < 10; round += 1) {
        const started = Date.now();
        await request(running.url).get(new URL(order.headers.location!).pathname).set(headers).expect(200);
        expect(Date.now() - started).toBeLessThan(1000);
        expectDiskFull(await request(running.url).get('/services/v1/health/ready').set(health));
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      // The old worker claimed the same unstored job in a loop: about 100 MB a second.
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(50 * 1024 * 1024);
      expect(
        (await request(running.url).get(`/services/v1/queued/jobs/${job.body.job_id}`).set(headers).expect(200)).body
          .state,
      ).toBe('queued');
      expect(lines.some((line) => line.includes('"level":"warn"') && line.includes('disk is full'))).toBe(true);
      expect(
        lines.some(
          (line) =>
            line.includes('"level":"warn"') &&
            line.includes('job queue queued/jobs: cannot use the job table (store: no disk space left'),
        ),
      ).toBe(true);
      small.free();
      const finished = await until(
        async () => (await request(running.url).get(`/services/v1/queued/jobs/${job.body.job_id}`).set(headers)).body,
        (state) => state.state === 'succeeded',
        40_000,
      );
      expect(finished.state).toBe('succeeded');
    } finally {
      await running.stop();
      small.free();
    }
  }, 60_000);
});
