import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { until } from '../../support/poll.ts';
import { newTestDatabase } from '../../support/test-database.ts';

describe('queued jobs', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  it('PUT adds a job: 202 with Location and {job_id, state, uri}; it runs and succeeds; GET shows it', async () => {
    await api.post('/v1/orders', { item: 'figs', quantity: 1 }).expect(201);
    const added = await api.put('/services/v1/queued/jobs', { type: 'reindex' }).expect(202);
    expect(added.body).toMatchObject({
      job_id: expect.anything(),
      state: expect.stringMatching(/^(queued|running|succeeded)$/),
    });
    expect(added.body.uri).toBe(`${api.url}/services/v1/queued/jobs/${added.body.job_id}`);
    expect(added.headers.location).toBe(added.body.uri);
    const finished = await until(
      async () => (await api.get(`/services/v1/queued/jobs/${added.body.job_id}`).expect(200)).body,
      (job) => job.state === 'succeeded' || job.state === 'failed',
    );
    expect(finished.state).toBe('succeeded');
    expect(finished.result).toMatchObject({ indexed: { orders: 1 } });
  });

  // The documents list X-Result-Fields and X-Expansion-Fields on a job's reads: they hold there as on any resource.
  it('X-Result-Fields keeps only the job members it names, on a job and on the list; an unknown one is 400', async () => {
    const added = await api.put('/services/v1/queued/jobs', { type: 'reindex' }).expect(202);
    const path = `/services/v1/queued/jobs/${added.body.job_id}`;
    const one = await api.get(path).set('X-Result-Fields', 'state,job_id').expect(200);
    expect(Object.keys(one.body).sort()).toEqual(['job_id', 'state']);
    const listed = await api.get('/services/v1/queued/jobs').set('X-Result-Fields', 'uri').expect(200);
    expect(listed.body.length).toBeGreaterThan(0);
    for (const job of listed.body) expect(Object.keys(job)).toEqual(['uri']);
    const unknown = await api.get(path).set('X-Result-Fields', 'item').expect(400);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'unknown_result_field', field: 'item' });
    const expansion = await api.get(path).set('X-Expansion-Fields', 'maybe').expect(400);
    expect(expansion.body.errors[0]).toMatchObject({ code: 'invalid_header', field: 'X-Expansion-Fields' });
    await api.get(path).set('X-Expansion-Fields', 'true').expect(200);
  });

  it('X-Result-Fields may name every member of a job the document describes', async () => {
    const document = (await api.get('/services/v1/openapi').expect(200)).body;
    const members = Object.keys(document.components.schemas.Job.properties);
    const added = await api.put('/services/v1/queued/jobs', { type: 'reindex' }).expect(202);
    await api
      .get(`/services/v1/queued/jobs/${added.body.job_id}`)
      .set('X-Result-Fields', members.join(','))
      .expect(200);
  });

  it('a failing job is recorded as failed with an error entry', async () => {
    const added = await api.put('/services/v1/queued/jobs', { type: 'reindex', collections: ['planets'] }).expect(202);
    const finished = await until(
      async () => (await api.get(`/services/v1/queued/jobs/${added.body.job_id}`)).body,
      (job) => job.state === 'failed' || job.state === 'succeeded',
    );
    expect(finished.state).toBe('failed');
    expect(finished.errors[0]).toMatchObject({
      code: expect.stringMatching(/^[a-z_]+$/),
      message: expect.stringContaining('planets'),
    });
  });

  it('DELETE removes a finished job (204), then 404', async () => {
    const added = await api.put('/services/v2/queued/jobs', { type: 'reindex' }).expect(202);
    await until(
      async () => (await api.get(`/services/v2/queued/jobs/${added.body.job_id}`)).body,
      (job) => job.state === 'succeeded',
    );
    await api.delete(`/services/v2/queued/jobs/${added.body.job_id}`).expect(204);
    await api.get(`/services/v2/queued/jobs/${added.body.job_id}`).expect(404);
    await api.delete(`/services/v2/queued/jobs/${added.body.job_id}`).expect(404);
  });

  it.each([
    ['no type', {}, 'type'],
    ['an undeclared type', { type: 'launch-rockets' }, 'type'],
    ['a bad payload', { type: 'reindex', collections: 'orders' }, 'collections'],
    ['an unknown payload member', { type: 'reindex', colour: 'red' }, 'colour'],
  ])('%s gets 400 naming the field', async (_name, body, field) => {
    const response = await api.put('/services/v1/queued/jobs', body).expect(400);
    expect(response.body.errors[0].field).toBe(field);
  });
});

describe('queued jobs across a restart', () => {
  it('a queued job survives a server restart and runs after it', async () => {
    const databaseUrl = await newTestDatabase();
    // The first server accepts jobs but runs none (its worker is paused), then stops.
    const first = await startApi({ databaseUrl, env: { JOB_WORKERS: '0' } });
    const added = await first.put('/services/v1/queued/jobs', { type: 'reindex' }).expect(202);
    await first
      .get(`/services/v1/queued/jobs/${added.body.job_id}`)
      .expect(200)
      .expect((response) => {
        expect(response.body.state).toBe('queued');
      });
    await first.close();
    const second = await startApi({ databaseUrl });
    try {
      const job = await until(
        async () => (await second.get(`/services/v1/queued/jobs/${added.body.job_id}`).expect(200)).body,
        (value) => value.state === 'succeeded',
      );
      expect(job.state).toBe('succeeded');
    } finally {
      await second.close();
    }
  });
});

describe('a running job', () => {
  it('cannot be removed while it runs (423), and can once it has finished', async () => {
    const { api: generated } = await import('../../../generated/api.ts');
    const { z } = await import('zod');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The example queue with one more job type that waits for the test: the real routes, store and worker.
    const queue = generated.jobQueues[0]!;
    const api = await startApi({
      api: {
        ...generated,
        jobQueues: [{ ...queue, jobs: { ...queue.jobs, wait: { payload: z.object({}), run: () => gate } } }],
      },
    });
    try {
      const added = await api.put('/services/v1/queued/jobs', { type: 'wait' }).expect(202);
      const running = await until(
        async () => (await api.get(`/services/v1/queued/jobs/${added.body.job_id}`)).body,
        (job) => job.state === 'running',
      );
      expect(running.state).toBe('running');
      const refused = await api.delete(`/services/v1/queued/jobs/${added.body.job_id}`).expect(423);
      expect(refused.body.errors[0].code).toBe('job_running');
      release();
      await until(
        async () => (await api.get(`/services/v1/queued/jobs/${added.body.job_id}`)).body,
        (job) => job.state === 'succeeded',
      );
      await api.delete(`/services/v1/queued/jobs/${added.body.job_id}`).expect(204);
    } finally {
      release();
      await api.close();
    }
  });
});
