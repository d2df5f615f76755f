import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { JobQueue, SqliteJobTable } from '../../../runtime/jobs/index.ts';
import { openDatabase } from '../../../runtime/storage/index.ts';
import { until } from '../../support/poll.ts';

const fileDatabase = () => join(mkdtempSync(join(tmpdir(), 'jobs-')), 'app.db');

describe('JobQueue', () => {
  it('never runs more jobs at once than its concurrency', async () => {
    let running = 0;
    let most = 0;
    const queue = new JobQueue({
      table: new SqliteJobTable(openDatabase(':memory:')),
      name: 'work',
      concurrency: 2,
      pollIntervalMs: 10,
      tools: {},
      types: {
        slow: {
          payload: z.object({}),
          run: async () => {
            running += 1;
            most = Math.max(most, running);
            await new Promise((resolve) => setTimeout(resolve, 30));
            running -= 1;
          },
        },
      },
    });
    queue.start();
    const jobs = await Promise.all(Array.from({ length: 6 }, () => queue.enqueue({ type: 'slow' })));
    await until(
      async () => (await Promise.all(jobs.map((job) => queue.get(job.job_id)))).map((job) => job?.state),
      (states) => states.every((state) => state === 'succeeded'),
    );
    expect((await Promise.all(jobs.map((job) => queue.get(job.job_id)))).map((job) => job?.state)).toEqual(
      Array(6).fill('succeeded'),
    );
    expect(most).toBe(2);
    await queue.stop();
  });

  it('puts back a job whose process died while running it, once its lease has run out', async () => {
    const path = fileDatabase();
    const types = { once: { payload: z.object({}), run: () => 'done' } };
    // A process that claims the job and dies: its lease (1 ms) runs out and nothing renews it.
    const dead = new JobQueue({
      table: new SqliteJobTable(openDatabase(path)),
      name: 'work',
      types,
      tools: {},
      concurrency: 0,
      leaseMs: 1,
    });
    const job = await dead.enqueue({ type: 'once' });
    const db = openDatabase(path);
    db.prepare(`UPDATE jobs SET state = 'running', lease_until = ? WHERE job_id = ?`).run(Date.now() - 1, job.job_id);
    const alive = new JobQueue({
      table: new SqliteJobTable(openDatabase(path)),
      name: 'work',
      types,
      tools: {},
      pollIntervalMs: 10,
    });
    alive.start();
    const finished = await until(
      async () => alive.get(job.job_id),
      (current) => current?.state === 'succeeded',
    );
    expect(finished).toMatchObject({ state: 'succeeded', result: 'done', attempts: 1 });
    await alive.stop();
  });

  it('polls an empty queue without taking the write lock another process holds', () => {
    const path = fileDatabase();
    // No busy wait: a poll that asked for the write lock would fail at once with SQLITE_BUSY.
    const db = openDatabase(path, { busyTimeoutMs: 0 });
    const table = new SqliteJobTable(db);
    const writer = openDatabase(path);
    try {
      writer.exec('BEGIN IMMEDIATE');
      expect(table.claim('work', Date.now() + 60_000)).toBeUndefined();
      expect(table.requeueExpired('work', Date.now())).toBe(0);
      writer.exec('ROLLBACK');
      // With work to do, the poll still takes it: a queued job is claimed, an expired lease put back.
      const queued = table.insert('work', 'once', {});
      expect(table.claim('work', Date.now() - 1)?.job_id).toBe(queued.job_id);
      expect(table.requeueExpired('work', Date.now())).toBe(1);
      expect(table.claim('work', Date.now() + 60_000)).toMatchObject({ job_id: queued.job_id, attempts: 2 });
    } finally {
      writer.close();
      db.close();
    }
  });

  it('records a failure with an error entry and keeps running other jobs', async () => {
    const queue = new JobQueue({
      table: new SqliteJobTable(openDatabase(':memory:')),
      name: 'work',
      pollIntervalMs: 10,
      tools: {},
      types: {
        fail: {
          payload: z.object({}),
          run: () => {
            throw new Error('disk full');
          },
        },
        pass: { payload: z.object({}), run: () => 1 },
      },
    });
    queue.start();
    const failing = await queue.enqueue({ type: 'fail' });
    const passing = await queue.enqueue({ type: 'pass' });
    await until(
      async () => (await queue.get(passing.job_id))?.state,
      (state) => state === 'succeeded',
    );
    expect(await queue.get(failing.job_id)).toMatchObject({
      state: 'failed',
      error: { code: 'job_failed', message: 'disk full' },
    });
    await queue.stop();
  });
});
