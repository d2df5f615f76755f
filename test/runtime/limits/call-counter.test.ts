import Koa from 'koa';
import request from 'supertest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '../../../runtime/http/index.ts';
import { flexibleCallCounter, MemoryCallCounter, rateLimit } from '../../../runtime/limits/index.ts';

describe('MemoryCallCounter', () => {
  it('allows `points` calls per key in a window, then refuses until the window ends', () => {
    let now = 1_000_000;
    const counter = new MemoryCallCounter({ points: 2, durationSeconds: 10, now: () => now });
    expect(counter.consume('a')).toEqual({ allowed: true, remaining: 1, resetsAtMs: 1_010_000 });
    now += 4_000;
    expect(counter.consume('a')).toEqual({ allowed: true, remaining: 0, resetsAtMs: 1_010_000 });
    expect(counter.consume('a')).toEqual({ allowed: false, remaining: 0, resetsAtMs: 1_010_000 });
    // Another key has its own window.
    expect(counter.consume('b')).toEqual({ allowed: true, remaining: 1, resetsAtMs: 1_014_000 });
    now = 1_010_000;
    expect(counter.consume('a')).toEqual({ allowed: true, remaining: 1, resetsAtMs: 1_020_000 });
  });

  it('forgets keys whose window has ended', () => {
    let now = 0;
    const counter = new MemoryCallCounter({ points: 5, durationSeconds: 1, now: () => now });
    for (let index = 0; index < 100; index += 1) counter.consume(`key-${index}`);
    expect(counter.size).toBe(100);
    now = 5_000;
    counter.consume('late');
    expect(counter.size).toBe(1);
  });

  it('a window ending between two sweeps ends at its reset time exactly; a sweep keeps the windows still running', () => {
    let now = 0;
    const counter = new MemoryCallCounter({ points: 1, durationSeconds: 10, now: () => now });
    // The first call sweeps and sets the next sweep 10 s later; b's window runs from 4 s to 14 s.
    counter.consume('a');
    now = 4_000;
    expect(counter.consume('b')).toEqual({ allowed: true, remaining: 0, resetsAtMs: 14_000 });
    now = 10_000;
    expect(counter.consume('b')).toEqual({ allowed: false, remaining: 0, resetsAtMs: 14_000 });
    now = 14_000;
    expect(counter.consume('b')).toEqual({ allowed: true, remaining: 0, resetsAtMs: 24_000 });
  });

  it.each([
    [{ points: 0, durationSeconds: 1 }],
    [{ points: 1, durationSeconds: 0 }],
    [{ points: Number.NaN, durationSeconds: 1 }],
  ])('refuses %j', (options) => {
    expect(() => new MemoryCallCounter(options)).toThrow(
      new RangeError('a call limit needs points >= 1 and durationSeconds > 0'),
    );
  });
});

describe('flexibleCallCounter', () => {
  it('counts with a rate-limiter-flexible limiter, refusals included', async () => {
    const counter = flexibleCallCounter(new RateLimiterMemory({ points: 1, duration: 60 }));
    const first = await counter.consume('k');
    expect(first).toMatchObject({ allowed: true, remaining: 0 });
    expect(first.resetsAtMs).toBeGreaterThan(Date.now() + 55_000);
    expect(await counter.consume('k')).toMatchObject({ allowed: false, remaining: 0 });
  });

  it("passes a failing limiter's error on (resilientCounter then counts in memory), where a refusal is a count", async () => {
    const limiter = new RateLimiterMemory({ points: 1, duration: 60 });
    limiter.consume = () => Promise.reject(new Error('connection is closed'));
    await expect(flexibleCallCounter(limiter).consume('k')).rejects.toThrow('connection is closed');
  });

  it('drives rateLimit() in a plain Koa app: headers on success, 429 with Retry-After past the limit', async () => {
    const app = new Koa();
    app.use(errorHandler());
    app.use(
      rateLimit({
        family: 'resource',
        points: 1,
        durationSeconds: 60,
        counter: flexibleCallCounter(new RateLimiterMemory({ points: 1, duration: 60 })),
      }),
    );
    app.use((ctx) => {
      ctx.body = { ok: true };
    });
    const server = app.callback();
    const ok = await request(server).get('/').expect(200);
    expect(ok.headers).toMatchObject({ 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' });
    const refused = await request(server).get('/').expect(429);
    expect(refused.headers['retry-after']).toMatch(/^(59|60)$/);
    expect(refused.body).toMatchObject({ errors: [{ code: 'rate_limit_exceeded' }] });
  });
});
