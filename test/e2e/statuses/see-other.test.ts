import { describe, expect, it } from 'vitest';
import { useCheckedApi } from '../../support/checked-client.ts';
import { until } from '../../support/poll.ts';

describe('303 See Other from a finished job that produced a resource (import-order produces orders)', () => {
  const { api, send } = useCheckedApi();

  it.each([['v1'], ['v2']])(
    '%s: the job is accepted (202), then GET of it answers 303 to the order it created',
    async (version) => {
      const added = await send('put', `/services/${version}/queued/jobs`, {
        type: 'import-order',
        item: `imported-${version}`,
        quantity: 4,
      });
      expect(added.status).toBe(202);
      expect(added.headers.location).toBe(added.body.uri);
      const jobPath = `/services/${version}/queued/jobs/${added.body.job_id}`;

      const done = await until(
        () => send('get', jobPath),
        (response) => response.status !== 200,
      );
      expect(done.status).toBe(303);
      const orders = await send('get', `/${version}/orders?item=imported-${version}`);
      expect(orders.body).toHaveLength(1);
      const href = `${api().url}/${version}/orders/${orders.body[0].order_id}`;
      expect(done.headers.location).toBe(href);
      expect(done.body).toEqual({ rel: 'result', href });

      const followed = await fetch(done.headers.location!, { headers: api().headers });
      expect(followed.status).toBe(200);
      expect(await followed.json()).toMatchObject({ item: `imported-${version}`, quantity: 4 });
    },
  );

  it('a job that produced nothing still answers 200 with its state when finished', async () => {
    const added = await send('put', '/services/v1/queued/jobs', { type: 'reindex' });
    const done = await until(
      () => send('get', `/services/v1/queued/jobs/${added.body.job_id}`),
      (response) => response.body.state === 'succeeded' || response.body.state === 'failed',
    );
    expect(done.status).toBe(200);
    expect(done.body.state).toBe('succeeded');
  });

  it('a producing job is checked when it is queued: 400 naming the field, no job', async () => {
    const invalid = await send('put', '/services/v1/queued/jobs', { type: 'import-order', item: '', quantity: 1 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0]).toMatchObject({ field: 'item' });
    expect(invalid.headers.location).toBeUndefined();
  });
});
