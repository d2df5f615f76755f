import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnvironment } from '@convapi/runtime';
import { startApi, type TestApi } from '../../support/start-api.ts';

const PAGE = 'https://app.example.com';
const OTHER = 'https://evil.example.com';
const accessControlHeaders = (headers: Record<string, string>) =>
  Object.keys(headers).filter((name) => name.startsWith('access-control-'));

describe('CORS_ORIGINS', () => {
  it('takes exact origins or *, and stops the server from starting on anything else', () => {
    expect(configFromEnvironment({}).corsOrigins).toBeUndefined();
    expect(configFromEnvironment({ CORS_ORIGINS: `${PAGE}, http://localhost:5173` }).corsOrigins).toEqual([
      PAGE,
      'http://localhost:5173',
    ]);
    expect(configFromEnvironment({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    for (const wrong of [`${PAGE}/`, `${PAGE}/app`, 'app.example.com', 'ftp://app.example.com', `${PAGE}, *`]) {
      expect(() => configFromEnvironment({ CORS_ORIGINS: wrong }), wrong).toThrow(ConfigError);
    }
  });
});

describe('CORS_ORIGINS unset', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  it('sends no CORS header at all, and a preflight is an OPTIONS like any other (it needs the token)', async () => {
    const read = await api.get('/v1/orders').set('Origin', PAGE).expect(200);
    expect(accessControlHeaders(read.headers)).toEqual([]);
    const preflight = await api
      .raw()
      .options('/v1/orders')
      .set({ 'User-Agent': 'browser', Origin: PAGE, 'Access-Control-Request-Method': 'POST' });
    expect(preflight.status).toBe(401);
    expect(accessControlHeaders(preflight.headers)).toEqual([]);
  });
});

describe('CORS_ORIGINS with exact origins', () => {
  let api: TestApi;
  const limit = 3;
  beforeAll(async () => {
    api = await startApi({ env: { CORS_ORIGINS: PAGE, RATE_LIMIT_RESOURCE: `${limit}/60` } });
  });
  afterAll(async () => api.close());

  const preflight = (origin: string) =>
    api.raw().options('/v1/orders/1').set({
      'User-Agent': 'browser',
      Origin: origin,
      'Access-Control-Request-Method': 'PATCH',
      'Access-Control-Request-Headers': 'authorization, content-type, if-match',
    });

  it('answers a preflight from an allowed origin 204 without a token, and does not count it against the call limit', async () => {
    for (let sent = 0; sent < limit * 3; sent += 1) {
      const answer = await preflight(PAGE);
      expect(answer.status).toBe(204);
      expect(answer.headers['access-control-allow-origin']).toBe(PAGE);
      expect(answer.headers['access-control-allow-methods']).toContain('PATCH');
      expect(answer.headers['access-control-allow-headers']?.toLowerCase().split(', ')).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'if-match']),
      );
      expect(Number(answer.headers['access-control-max-age'])).toBeGreaterThan(0);
      expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
      expect(answer.headers.vary).toMatch(/\bOrigin\b/);
    }
    // Every call of the limit is still there.
    const first = await api.get('/v1/orders').set('Origin', PAGE).expect(200);
    expect(first.headers['x-ratelimit-remaining']).toBe(String(limit - 1));
  });

  it('gives a preflight from any other origin no CORS header (the browser then refuses the call)', async () => {
    const answer = await preflight(OTHER);
    expect(answer.status).toBe(204);
    expect(accessControlHeaders(answer.headers)).toEqual([]);
  });

  it('lets an allowed page read the headers the conventions answer with, errors included', async () => {
    const created = await api.post('/v1/orders', { item: 'mug', quantity: 1 }).set('Origin', PAGE).expect(201);
    expect(created.headers['access-control-allow-origin']).toBe(PAGE);
    const exposed = created.headers['access-control-expose-headers']!.split(', ');
    expect(exposed).toEqual(
      expect.arrayContaining([
        'ETag',
        'Location',
        'Link',
        'X-Total-Count',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
        'WWW-Authenticate',
      ]),
    );
    const anonymous = await api.raw().get('/v1/orders').set({ 'User-Agent': 'browser', Origin: PAGE }).expect(401);
    expect(anonymous.headers['access-control-allow-origin']).toBe(PAGE);
    expect(anonymous.headers['access-control-expose-headers']).toContain('WWW-Authenticate');
    let limited = await api.get('/v1/orders').set('Origin', PAGE);
    for (let sent = 1; limited.status !== 429 && sent <= limit; sent += 1)
      limited = await api.get('/v1/orders').set('Origin', PAGE);
    expect(limited.status).toBe(429);
    expect(limited.headers['access-control-allow-origin']).toBe(PAGE);
    const elsewhere = await api.raw().get('/v1/orders').set({ 'User-Agent': 'browser', Origin: OTHER });
    expect(accessControlHeaders(elsewhere.headers)).toEqual([]);
    expect(elsewhere.headers.vary).toMatch(/\bOrigin\b/);
  });
});

describe('CORS_ORIGINS=*', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { CORS_ORIGINS: '*' } });
  });
  afterAll(async () => api.close());

  it('allows every origin, without credentials and without varying on Origin', async () => {
    const preflight = await api
      .raw()
      .options('/v1/orders')
      .set({ 'User-Agent': 'browser', Origin: OTHER, 'Access-Control-Request-Method': 'POST' })
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const read = await api.get('/v1/orders').set('Origin', OTHER).expect(200);
    expect(read.headers['access-control-allow-origin']).toBe('*');
    expect(read.headers.vary).not.toMatch(/\bOrigin\b/);
  });
});
