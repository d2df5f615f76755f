import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { OpenApiChecker } from '../../support/openapi-check.ts';
import { REPOSITORY } from '../../support/spawn-server.ts';
import { delay, slowPost } from '../../support/slow-request.ts';

const loadBalancer = { 'User-Agent': 'ELB-HealthChecker/2.0' };
const documentPath = (version: string) => join(REPOSITORY, 'generated', 'openapi', `${version}.json`);
const checkers = { v1: new OpenApiChecker(documentPath('v1')), v2: new OpenApiChecker(documentPath('v2')) };

describe('health and readiness', () => {
  let api: TestApi;
  beforeAll(async () => {
    // A service call limit of 3 per minute: health checks must not use it up.
    api = await startApi({ env: { RATE_LIMIT_SERVICE: '3/60' } });
  });
  afterAll(async () => api.close());

  it.each(['v1', 'v2'] as const)(
    '%s: liveness and readiness answer 200 without a token, as the OpenAPI document says',
    async (version) => {
      const live = await api.raw().get(`/services/${version}/health`).set(loadBalancer).expect(200);
      expect(live.body).toEqual({ status: 'alive' });
      const ready = await api.raw().get(`/services/${version}/health/ready`).set(loadBalancer).expect(200);
      expect(ready.body).toEqual({ status: 'ready', checks: { store: 'ok' } });
      for (const [path, response] of [
        [`/services/${version}/health`, live],
        [`/services/${version}/health/ready`, ready],
      ] as const) {
        expect(checkers[version].check('get', path, response)).toEqual([]);
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
      }
    },
  );

  it('is open in the OpenAPI documents (a User-Agent, no token) while every other operation needs the bearer token too', () => {
    for (const version of ['v1', 'v2']) {
      const document = JSON.parse(readFileSync(documentPath(version), 'utf8')) as {
        security: unknown;
        paths: Record<string, Record<string, { security?: unknown[] }>>;
      };
      expect(document.paths[`/services/${version}/health`]?.get?.security).toEqual([{ user_agent: [] }]);
      expect(document.paths[`/services/${version}/health/ready`]?.get?.security).toEqual([{ user_agent: [] }]);
      expect(document.paths[`/services/${version}/search`]?.get?.security).toBeUndefined();
      expect(document.security).toEqual([{ bearer: [], user_agent: [] }]);
    }
  });

  it("is not counted against a client's call limit, nor against an address's", async () => {
    for (let call = 0; call < 6; call += 1) {
      await api.get('/services/v1/health/ready').expect(200);
      await api.raw().get('/services/v1/health').set(loadBalancer).expect(200);
    }
    // The client's first counted call of the service family still has the whole limit but this one.
    const counted = await api.get('/services/v1/search?q=x&category=orders').expect(200);
    expect(counted.headers['x-ratelimit-limit']).toBe('3');
    expect(counted.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('still requires a User-Agent (conventions), and other methods are not open', async () => {
    const bare = await api.raw().get('/services/v1/health');
    expect(bare.status).toBe(400);
    expect(bare.body.errors[0].code).toBe('missing_user_agent');
    await api.raw().delete('/services/v1/health').set(loadBalancer).expect(401);
  });
});

describe('readiness when the server cannot serve', () => {
  it('answers 503 with the error body naming the store when the store is closed', async () => {
    // No job workers: they would poll the closed store.
    const api = await startApi({ env: { JOB_WORKERS: '0' } });
    try {
      await api.running.api.context.store.close();
      const response = await api.raw().get('/services/v1/health/ready').set(loadBalancer).expect(503);
      expect(response.headers['content-type']).toBe('application/json;charset=UTF-8');
      expect(response.body).toEqual({
        message: 'Service Unavailable',
        errors: [{ code: 'dependency_unavailable', message: expect.stringMatching(/^store: /), resource: 'store' }],
      });
      expect(checkers.v1.check('get', '/services/v1/health/ready', response)).toEqual([]);
      // Alive all the same: the process answers; restarting it is not what fixes a store.
      await api.raw().get('/services/v1/health').set(loadBalancer).expect(200);
    } finally {
      await api.close();
    }
  });

  it('answers 503 during a shutdown, while a request in flight finishes', async () => {
    const api = await startApi();
    const inFlight = slowPost(new URL('/v1/orders', api.url), api.headers, { item: 'slow', quantity: 1 });
    await delay(200);
    const stopped = api.running.stop();
    const ready = await api.raw().get('/services/v1/health/ready').set(loadBalancer);
    expect(ready.status).toBe(503);
    expect(ready.body.errors[0].code).toBe('service_unavailable');
    expect(ready.headers.connection).toBe('close');
    inFlight.finish();
    const finished = await inFlight.outcome;
    expect(finished !== 'closed' && finished.status).toBe(201);
    await stopped;
    await api.close();
  });
});
