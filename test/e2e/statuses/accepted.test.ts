import { describe, expect, it } from 'vitest';
import { useCheckedApi } from '../../support/checked-client.ts';
import { until } from '../../support/poll.ts';

describe('202 Accepted for asynchronous operations (batches: POST, PUT, PATCH, DELETE as jobs)', () => {
  const { api, send } = useCheckedApi();

  /** Waits for a job to finish; answers its last GET (303 when it produced a resource, 200 otherwise). */
  const finished = (location: string) => {
    const path = new URL(location).pathname;
    return until(
      () => send('get', path),
      (response) => response.status === 303 || ['succeeded', 'failed'].includes(response.body.state),
    );
  };

  const expectAccepted = (response: Awaited<ReturnType<typeof send>>, version: string) => {
    expect(response.status).toBe(202);
    expect(response.headers.location).toMatch(new RegExp(`^${api().url}/services/${version}/queued/jobs/\\d+$`));
    expect(response.body).toMatchObject({
      uri: response.headers.location,
      state: expect.stringMatching(/^(queued|running|succeeded)$/),
    });
  };

  it.each([['v1'], ['v2']])(
    '%s: POST → 202 and a job; once done, GET of the job → 303 to the new batch',
    async (version) => {
      const accepted = await send('post', `/${version}/batches`, { label: `nightly-${version}`, size: 10 });
      expectAccepted(accepted, version);
      expect(accepted.body.type).toBe('batches.create');
      const done = await finished(accepted.headers.location!);
      expect(done.status).toBe(303);
      expect(done.body.rel).toBe('result');
      const batch = await fetch(done.headers.location!, { headers: api().headers });
      expect(await batch.json()).toMatchObject({ label: `nightly-${version}`, size: 10 });
    },
  );

  it('PUT and PATCH → 202; the change is made by the job, and its GET → 303 to the batch', async () => {
    const created = await finished((await send('post', '/v1/batches', { label: 'weekly', size: 1 })).headers.location!);
    const path = new URL(created.headers.location!).pathname;

    const patched = await send('patch', path, { size: 5 });
    expectAccepted(patched, 'v1');
    const patchDone = await finished(patched.headers.location!);
    expect(patchDone.status).toBe(303);
    expect(patchDone.headers.location).toBe(`${api().url}${path}`);
    expect((await send('get', path)).body).toMatchObject({ label: 'weekly', size: 5 });

    const replaced = await send('put', path, { label: 'monthly' });
    expectAccepted(replaced, 'v1');
    expect((await finished(replaced.headers.location!)).status).toBe(303);
    const after = (await send('get', path)).body;
    expect(after.label).toBe('monthly');
    expect(after.size).toBeUndefined();
  });

  it('DELETE → 202; the job removes the batch and then answers 200 with its succeeded state', async () => {
    const created = await finished((await send('post', '/v1/batches', { label: 'doomed' })).headers.location!);
    const path = new URL(created.headers.location!).pathname;
    const deleted = await send('delete', path);
    expectAccepted(deleted, 'v1');
    const done = await finished(deleted.headers.location!);
    expect(done.status).toBe(200);
    expect(done.body.state).toBe('succeeded');
    expect((await send('get', path)).status).toBe(404);
  });

  it('what the request itself gets wrong is answered at once, and nothing is queued', async () => {
    const invalid = await send('post', '/v1/batches', { size: 3 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0]).toMatchObject({ field: 'label' });
    expect(invalid.headers.location).toBeUndefined();
    expect((await send('patch', '/v1/batches/987654', { size: 1 })).status).toBe(404);
    expect((await send('delete', '/v1/batches/987654')).status).toBe(404);
    const created = await finished((await send('post', '/v1/batches', { label: 'guarded' })).headers.location!);
    const stale = await send(
      'patch',
      new URL(created.headers.location!).pathname,
      { size: 2 },
      { 'If-Match': '"stale"' },
    );
    expect(stale.status).toBe(412);
  });

  it('clients cannot queue the operation jobs themselves', async () => {
    const response = await send('put', '/services/v1/queued/jobs', {
      type: 'batches.create',
      version: 'v1',
      body: { label: 'sneaky' },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ code: 'unknown_job_type', field: 'type' });
  });
});
