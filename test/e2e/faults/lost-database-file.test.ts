import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type request from 'supertest';
import { startApi } from '../../support/start-api.ts';
import { testEngine } from '../../support/test-database.ts';

const health = { 'User-Agent': 'ELB-HealthChecker/2.0' };

function expectFileLost(response: request.Response): void {
  expect(response.status).toBe(503);
  expect(response.headers['retry-after']).toMatch(/^\d+$/);
  expect(response.body.errors).toEqual([
    {
      code: 'dependency_unavailable',
      message: 'store: the database file was removed or replaced since the server opened it; try again later',
      resource: 'store',
    },
  ]);
}

describe.runIf(testEngine() === 'sqlite')(
  'a SQLite database file that disappears or is replaced under the running server',
  () => {
    // A read of a removed folder's file fails in SQLite itself (its WAL index is gone): 503 too, never 500.
    it.each([
      ['its folder is removed', 503, (file: string) => rmSync(dirname(file), { recursive: true, force: true })],
      [
        'another file is moved over it (a restore)',
        200,
        (file: string) => {
          copyFileSync(file, join(dirname(file), 'copy.db'));
          renameSync(join(dirname(file), 'copy.db'), file);
        },
      ],
    ] as const)(
      'when %s: no write is acknowledged into the lost file (503), readiness fails, a read answers %i',
      async (_, readStatus, lose) => {
        const api = await startApi({ env: { JOB_WORKERS: '0' } });
        try {
          const file = api.databaseUrl.replace(/^sqlite:/, '');
          const kept = await api.post('/v1/orders', { item: 'before', quantity: 1 }).expect(201);
          lose(file);
          expectFileLost(await api.post('/v1/orders', { item: 'after', quantity: 1 }));
          expectFileLost(await api.put('/settings/v1/gui/lang', { lang: 'fr-FR' }));
          expectFileLost(await api.put('/services/v1/queued/jobs', { type: 'reindex' }));
          expectFileLost(await api.raw().get('/services/v1/health/ready').set(health));
          const read = await api.get(new URL(kept.headers.location!).pathname);
          expect(read.status).toBe(readStatus);
          if (readStatus === 503) expect(read.body.errors[0].code).toBe('dependency_unavailable');
        } finally {
          await api.close();
        }
      },
    );
  },
);
