import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type request from 'supertest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { createDatabase, startPostgres, type PostgresServer } from '../../support/postgres-server.ts';
import { testEngine } from '../../support/test-database.ts';
import { until } from '../../support/poll.ts';

const health = { 'User-Agent': 'ELB-HealthChecker/2.0' };

function expectUnreachable(response: request.Response, port: number): void {
  expect(response.status).toBe(503);
  expect(response.headers['retry-after']).toMatch(/^\d+$/);
  expect(response.body).toEqual({
    message: 'Service Unavailable',
    errors: [
      { code: 'dependency_unavailable', message: 'store: cannot be reached; try again later', resource: 'store' },
    ],
  });
  // Never the store's address.
  expect(JSON.stringify(response.body)).not.toMatch(new RegExp(`127\\.0\\.0\\.1|${port}`));
}

// A PostgreSQL server of its own, stopped and started again under the running server.
describe.runIf(testEngine() === 'postgres')('PostgreSQL stopped under a running server', () => {
  let postgres: PostgresServer;
  let api: TestApi;
  beforeAll(async () => {
    postgres = await startPostgres();
    api = await startApi({ databaseUrl: await createDatabase(postgres.url) });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await postgres?.stop();
  });

  it('reads, writes and readiness (with or without a token) answer 503 dependency_unavailable with Retry-After, never 500, and serve again once it is back', async () => {
    const kept = await api.post('/v1/orders', { item: 'before the outage', quantity: 1 }).expect(201);
    await postgres.halt();
    expectUnreachable(await api.post('/v1/orders', { item: 'during', quantity: 1 }), postgres.port);
    expectUnreachable(await api.get(new URL(kept.headers.location!).pathname), postgres.port);
    expectUnreachable(await api.get('/v1/orders'), postgres.port);
    expectUnreachable(await api.put('/settings/v1/gui/lang', { lang: 'fr-FR' }), postgres.port);
    expectUnreachable(await api.put('/services/v1/queued/jobs', { type: 'reindex' }), postgres.port);
    const bare = await api.raw().get('/services/v1/health/ready').set(health);
    const withToken = await api
      .raw()
      .get('/services/v1/health/ready')
      .set({ ...health, Authorization: api.headers.Authorization! });
    expectUnreachable(bare, postgres.port);
    expect({ status: withToken.status, body: withToken.body }).toEqual({ status: bare.status, body: bare.body });
    await postgres.resume();
    const back = await until(
      () => api.post('/v1/orders', { item: 'after', quantity: 1 }).then((response) => response),
      (response) => response.status === 201,
      15_000,
    );
    expect(back.status).toBe(201);
    await api.get('/services/v1/health/ready').expect(200);
    expect((await api.get(new URL(kept.headers.location!).pathname).expect(200)).body.item).toBe('before the outage');
  }, 60_000);
});
