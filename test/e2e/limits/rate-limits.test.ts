import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { expectRateLimited } from '../../support/rate-limited.ts';

describe('call limits per family', () => {
  let api: TestApi;
  const limit = 5;
  beforeAll(async () => {
    api = await startApi({
      env: { RATE_LIMIT_RESOURCE: '1000/60', RATE_LIMIT_SERVICE: '1000/60', RATE_LIMIT_SETTING: `${limit}/60` },
    });
  });
  afterAll(async () => api.close());

  it('every limited response carries X-RateLimit-Limit, -Remaining and -Reset (Unix epoch seconds)', async () => {
    const response = await api.get('/v1/orders').expect(200);
    expect(response.headers['x-ratelimit-limit']).toBe('1000');
    expect(Number(response.headers['x-ratelimit-remaining'])).toBeLessThan(1000);
    const reset = Number(response.headers['x-ratelimit-reset']);
    const now = Date.now() / 1000;
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThan(now - 1);
    expect(reset).toBeLessThanOrEqual(now + 61);
  });

  it('a concurrent burst of ten times the limit gets exactly `limit` successes; the rest 429 with Retry-After', async () => {
    const burst = await Promise.all(Array.from({ length: limit * 10 }, () => api.get('/settings/v1/gui/lang')));
    const ok = burst.filter((response) => response.status === 200);
    const limited = burst.filter((response) => response.status === 429);
    expect(ok).toHaveLength(limit);
    expect(limited).toHaveLength(limit * 9);
    for (const response of limited) expectRateLimited(response, limit);
  });

  it("one family's exhaustion leaves the others untouched", async () => {
    await api.get('/settings/v1/gui/lang').expect(429);
    await api.get('/v1/orders').expect(200);
    await api.get('/services/v1/search?q=x&category=orders').expect(200);
  });
});
