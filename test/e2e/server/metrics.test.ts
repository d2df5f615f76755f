import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { parsePrometheusText, sampleValue, type Sample } from '../../support/prometheus-text.ts';
import { until } from '../../support/poll.ts';

const METRICS_TOKEN = 'scrape-secret-for-tests-0123456789';

describe('Prometheus metrics on METRICS_PORT', () => {
  let api: TestApi;
  let metricsUrl: string;
  const scrape = async (headers: Record<string, string> = { Authorization: `Bearer ${METRICS_TOKEN}` }) =>
    fetch(metricsUrl, { headers });
  const samples = async (): Promise<Sample[]> => parsePrometheusText(await (await scrape()).text());

  beforeAll(async () => {
    api = await startApi({ env: { METRICS_PORT: '0', METRICS_TOKEN, RATE_LIMIT_SETTING: '2/60' } });
    metricsUrl = api.running.metricsUrl!;
  });
  afterAll(async () => api.close());

  it('are served on their own port, in the text format, only with the bearer token when METRICS_TOKEN is set', async () => {
    expect(new URL(metricsUrl).port).not.toBe(new URL(api.url).port);
    const refused = await scrape({});
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect((await scrape({ Authorization: 'Bearer wrong' })).status).toBe(401);
    const served = await scrape();
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toContain('text/plain');
    expect(
      (await fetch(new URL('/other', metricsUrl), { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).status,
    ).toBe(404);
  });

  it('count a known set of requests by route template, family and status, with their latencies, refusals and jobs', async () => {
    const created = await api.post('/v2/orders', { item: 'pear', quantity: 1 }).expect(201);
    for (let call = 0; call < 3; call += 1) await api.get(`/v2/orders/${created.body.identity}`).expect(200);
    await api.get('/v2/orders/999999').expect(404);
    await api.raw().get('/v2/orders').set('User-Agent', 'no-token').expect(401);
    for (let call = 0; call < 3; call += 1) await api.put('/settings/v2/gui/lang', { lang: 'fr-FR' });
    const job = await api.put('/services/v2/queued/jobs', { type: 'reindex' }).expect(202);
    await until(
      async () => (await api.get(`/services/v2/queued/jobs/${job.body.job_id}`)).body.state,
      (state) => state === 'succeeded',
    );

    // Each count is written when its response has been sent: read until the last one is in.
    const read = await until(
      samples,
      (found) =>
        sampleValue(found, 'jobs_finished_total', { outcome: 'succeeded' }) === 1 &&
        (sampleValue(found, 'http_requests_total', { route: '/services/v2/queued/jobs/:job_id', status: '200' }) ??
          0) >= 1,
    );
    const requests = (route: string, status: string, method = 'GET') =>
      sampleValue(read, 'http_requests_total', { method, route, status });
    expect(requests('/v2/orders', '201', 'POST')).toBe(1);
    expect(requests('/v2/orders/:order_id', '200')).toBe(3);
    expect(requests('/v2/orders/:order_id', '404')).toBe(1);
    // Refused before routing, still labelled by its template.
    expect(requests('/v2/orders', '401')).toBe(1);
    expect(requests('/settings/v2/gui/lang', '200', 'PUT')).toBe(2);
    expect(requests('/settings/v2/gui/lang', '429', 'PUT')).toBe(1);
    expect(sampleValue(read, 'http_requests_total', { route: '/v2/orders/:order_id', status: '200' })).toBe(3);
    expect(
      read.find((sample) => sample.name === 'http_requests_total' && sample.labels.route === '/v2/orders/:order_id')
        ?.labels.family,
    ).toBe('resource');
    expect(
      sampleValue(read, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/v2/orders/:order_id',
        status: '200',
      }),
    ).toBe(3);
    expect(
      sampleValue(read, 'http_request_duration_seconds_bucket', {
        method: 'GET',
        route: '/v2/orders/:order_id',
        status: '200',
        le: '+Inf',
      }),
    ).toBe(3);
    expect(
      sampleValue(read, 'http_request_duration_seconds_sum', {
        method: 'GET',
        route: '/v2/orders/:order_id',
        status: '200',
      }),
    ).toBeGreaterThan(0);
    expect(sampleValue(read, 'rate_limit_refusals_total', { family: 'setting' })).toBe(1);
    expect(
      sampleValue(read, 'jobs_finished_total', { queue: 'queued/jobs', type: 'reindex', outcome: 'succeeded' }),
    ).toBe(1);
    expect(sampleValue(read, 'job_queue_depth', { queue: 'queued/jobs', state: 'queued' })).toBe(0);
    expect(sampleValue(read, 'job_queue_depth', { queue: 'queued/jobs', state: 'running' })).toBe(0);
    // No raw path ever becomes a label.
    expect(read.some((sample) => sample.labels.route === '/v2/orders/999999')).toBe(false);
    // Process metrics.
    expect(sampleValue(read, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(read, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});

describe('without METRICS_PORT', () => {
  it('keeps no metrics and opens no port', async () => {
    const api = await startApi();
    try {
      expect(api.running.metricsUrl).toBeUndefined();
      expect(api.running.api.metrics).toBeUndefined();
      await api.get('/metrics').expect(404);
    } finally {
      await api.close();
    }
  });
});
