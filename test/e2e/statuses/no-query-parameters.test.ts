import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';

/**
 * Only lists and searches take query parameters. Every other operation refuses one, as a list
 * refuses one it does not know: read and ignored, `?fields=item` would look honoured.
 */
describe('an operation that takes no query parameters, sent one', () => {
  let api: TestApi;
  let order: string;
  let user: string;
  beforeAll(async () => {
    api = await startApi();
    order = new URL((await api.post('/v1/orders', { item: 'plain', quantity: 1 }).expect(201)).body.uri).pathname;
    user = new URL((await api.post('/v1/users', { user_name: 'no-query' }).expect(201)).body.uri).pathname;
  });
  afterAll(async () => api.close());

  const refused = (
    response: { status: number; body: { errors: { code: string; field?: string; message: string }[] } },
    name: string,
  ) => {
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]).toMatchObject({ code: 'unknown_parameter', field: name });
  };

  it('GET of one resource: 400 unknown_parameter naming it, and the header that does what it meant', async () => {
    const response = await api.get(`${order}?fields=item`);
    refused(response, 'fields');
    expect(response.body.errors[0].message).toMatch(/X-Result-Fields/);
  });

  it('each write of a resource: 400, and nothing written', async () => {
    refused(await api.patch(`${order}?dry_run=true`, { quantity: 9 }), 'dry_run');
    refused(await api.put(`${order}?dry_run=true`, { item: 'changed', quantity: 9 }), 'dry_run');
    refused(await api.delete(`${order}?force=true`), 'force');
    refused(await api.post('/v1/orders?notify=false', { item: 'second', quantity: 1 }), 'notify');
    await api
      .get(order)
      .expect(200)
      .expect((response) => expect(response.body).toMatchObject({ item: 'plain', quantity: 1 }));
    expect((await api.get('/v1/orders?item=second').expect(200)).body).toEqual([]);
  });

  it('an aggregate, a setting and a job', async () => {
    refused(await api.get(`${user}/profiles?expand=true`), 'expand');
    refused(await api.patch(`${user}/profiles?x=1`, { full_name: 'Ann' }), 'x');
    refused(await api.get('/settings/v1/gui/lang?lang=de'), 'lang');
    refused(await api.put('/settings/v1/gui/lang?lang=de', { lang: 'de' }), 'lang');
    const job = await api.put('/services/v1/queued/jobs', { type: 'reindex' }).expect(202);
    const jobPath = new URL(job.headers.location!).pathname;
    refused(await api.get(`${jobPath}?verbose=1`), 'verbose');
    refused(await api.delete(`${jobPath}?verbose=1`), 'verbose');
    refused(await api.put('/services/v1/queued/jobs?priority=high', { type: 'reindex' }), 'priority');
  });

  it('an own operation: a name its strict query schema does not declare is unknown_parameter, one given twice repeated_parameter', async () => {
    refused(await api.get('/services/v1/delay?ms=1&verbose=1'), 'verbose');
    await api.get('/services/v1/delay?ms=1').expect(200);
    // Given twice: which would count is a guess, refused as a list refuses it.
    const twice = await api.get('/services/v1/delay?ms=1&ms=2').expect(400);
    expect(twice.body.errors[0]).toMatchObject({ code: 'repeated_parameter', field: 'ms' });
  });

  it('a query of separators alone names no parameter, and lists keep theirs', async () => {
    await api.get(`${order}?&`).expect(200);
    await api.get('/v1/orders?item=plain&limit=5').expect(200);
    refused(await api.get('/v1/orders?fields=item'), 'fields');
    await api.get('/services/v1/queued/jobs?state=queued').expect(200);
  });
});
