import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';

/** A visit report past the size the runtime gzips at once (64 KiB): koa-compress streams it, and Koa pipes the stream. */
const LARGE = 200 * 1024;

// Every middleware of the runtime listens for each response's 'close' once; a streamed body adds
// Node's own pipeline listeners. Together they passed Node's default limit of 10, and Node printed
// "MaxListenersExceededWarning: Possible EventEmitter memory leak detected" for every such response.
describe('a response streamed with every middleware mounted (metrics, the request log, the drain, processing updates, connection fairness)', () => {
  let api: TestApi;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  beforeAll(async () => {
    api = await startApi({ env: { JOB_WORKERS: '0', METRICS_PORT: '0' } });
    await api.post('/v1/pets', { pet_name: 'Rex' }).expect(201);
    await api
      .post('/v1/visits', { pet: 1, scheduled_at: '2026-12-02T09:30:00Z', report: 'x'.repeat(LARGE) })
      .expect(201);
    process.on('warning', onWarning);
  }, 60_000);
  afterAll(async () => {
    process.off('warning', onWarning);
    await api.close();
  });

  it('is answered in full, gzipped, without a listener warning', async () => {
    for (let round = 0; round < 3; round += 1) {
      // supertest sends Accept-Encoding: gzip and unzips the answer.
      const response = await api.get('/v1/visits/1').expect(200);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.headers['content-length']).toBeUndefined();
      expect((response.body as { report: string }).report).toHaveLength(LARGE);
    }
    // A warning is emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
  });
});
