import Koa from 'koa';
import request from 'supertest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorHandler } from '../../../runtime/http/index.ts';
import { leasedCounter, MemoryCallCounter, rateLimit, resilientCounter } from '../../../runtime/limits/index.ts';

/** One shared store (as Redis or PostgreSQL would be) and a counter per instance on it, counting the store's calls. */
function instances(count: number, points: number) {
  const store = new RateLimiterMemory({ points, duration: 60 });
  let reservations = 0;
  const counting = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'consume') {
        return (key: string, n: number) => {
          reservations += 1;
          return target.consume(key, n);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
  const counters = Array.from({ length: count }, () => leasedCounter({ limiter: counting, points }));
  return { counters, reservations: () => reservations };
}

/** A burst of `calls` calls of one key, all at once, spread over the instances; how many were allowed. */
async function burst(counters: ReturnType<typeof instances>['counters'], calls: number, key = 'client:a') {
  const counts = await Promise.all(
    Array.from({ length: calls }, (_, index) => counters[index % counters.length]!.consume(key)),
  );
  return counts.filter((count) => count.allowed).length;
}

/** `calls` calls of one key made one after the other on one instance; how many were allowed. */
async function oneByOne(counter: ReturnType<typeof instances>['counters'][number], calls: number, key = 'client:a') {
  let allowed = 0;
  for (let call = 0; call < calls; call += 1) if ((await counter.consume(key)).allowed) allowed += 1;
  return allowed;
}

/** A Koa app limited by one leased counter of `points` calls a minute. */
function limitedApp(points: number) {
  const app = new Koa();
  app.use(errorHandler());
  const [counter] = instances(1, points).counters;
  app.use(rateLimit({ family: 'resource', points, durationSeconds: 60, keyOf: () => 'client:a', counter }));
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  return app.callback();
}

describe('leasedCounter: shared counting in batches', () => {
  it.each([
    ['a small limit, two instances', { instances: 2, points: 10, calls: 100 }],
    ['a small limit, three instances', { instances: 3, points: 7, calls: 70 }],
    ['a limit of one', { instances: 2, points: 1, calls: 20 }],
  ])('%s: a burst of ten times the limit gets exactly the limit', async (_name, given) => {
    const { counters } = instances(given.instances, given.points);
    expect(await burst(counters, given.calls)).toBe(given.points);
  });

  it('never allows more than the limit, whatever the batches, and far from the limit rarely asks the store', async () => {
    const { counters, reservations } = instances(2, 1000);
    let allowed = 0;
    for (let round = 0; round < 30; round += 1) allowed += await burst(counters, 50);
    expect(allowed).toBeLessThanOrEqual(1000);
    // 1,500 calls: every one counted, but the store was asked far fewer times than once per call.
    // Counted at the store because that is where batching shows: what Redis or PostgreSQL receives
    // (its load, one round trip per batch); a caller's answers are the same with or without batches.
    expect(allowed).toBeGreaterThanOrEqual(1000 - 2 * 50);
    expect(reservations()).toBeLessThan(400);
  });

  it('answers a call from a batch at once, without a promise', async () => {
    const { counters } = instances(1, 1000);
    const first = await counters[0]!.consume('client:b');
    expect(first).toMatchObject({ allowed: true });
    const second = counters[0]!.consume('client:b');
    expect(second).not.toBeInstanceOf(Promise);
    expect(second).toMatchObject({ allowed: true });
  });

  it('keeps the calls that fit when a batch overshoots the limit: another instance took part of it', async () => {
    const { counters } = instances(2, 100);
    // Instance 1 reserves a batch of 5 (100 / 20); instance 2 then spends calls one by one.
    await counters[0]!.consume('client:c');
    let allowed = 1;
    for (let call = 0; call < 200; call += 1) if ((await counters[call % 2]!.consume('client:c')).allowed) allowed += 1;
    expect(allowed).toBe(100);
  });

  it('an instance that stops being called holds at most a twentieth of the limit: another serves the rest', async () => {
    const { counters } = instances(2, 100);
    // The first call reserves 5 (100 / 20), one spent: 4 stay with the first instance.
    await counters[0]!.consume('client:a');
    expect(await oneByOne(counters[1]!, 200)).toBe(95);
  });

  it('near the limit a reservation is one call: an instance that stops there holds none back', async () => {
    const { counters } = instances(2, 100);
    // The first instance's batches shrink with what the store says remains, down to one call.
    expect(await oneByOne(counters[0]!, 91)).toBe(91);
    expect(await oneByOne(counters[1]!, 20)).toBe(9);
  });

  it("keeps the calls that fit when its reservation passes the limit: another instance spent the store's last calls", async () => {
    const { counters } = instances(2, 100);
    // The first instance holds a batch (5) and knows of 95 more; the second spends all but 2 of them.
    await counters[0]!.consume('client:a');
    expect(await oneByOne(counters[1]!, 93)).toBe(93);
    // The first spends its batch, then asks for 4 (95 / 20) where 2 remain: it gets those 2.
    expect(await oneByOne(counters[0]!, 10)).toBe(6);
    expect(await oneByOne(counters[1]!, 10)).toBe(0);
  });

  it('X-RateLimit-Remaining counts down by one from a batch, and a refusal has Retry-After and the reset', async () => {
    const server = limitedApp(100);
    const remaining = [];
    for (let call = 0; call < 3; call += 1)
      remaining.push((await request(server).get('/').expect(200)).headers['x-ratelimit-remaining']);
    // A batch of 5 taken from 100: 95 left in the store plus what is left of the batch.
    expect(remaining).toEqual(['99', '98', '97']);

    const small = limitedApp(2);
    await request(small).get('/').expect(200);
    const last = await request(small).get('/').expect(200);
    const refused = await request(small).get('/').expect(429);
    expect(refused.headers['retry-after']).toMatch(/^(59|60)$/);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['x-ratelimit-reset']).toBe(last.headers['x-ratelimit-reset']);
    expect(Number(refused.headers['x-ratelimit-reset']) * 1000).toBeGreaterThan(Date.now() + 55_000);
  });

  it('a failing store is not a refusal: the error reaches resilientCounter, which counts in memory', async () => {
    const failing = new RateLimiterMemory({ points: 10, duration: 60 });
    failing.consume = () => Promise.reject(new Error('connection is closed'));
    const lines: string[] = [];
    const counter = resilientCounter({
      shared: leasedCounter({ limiter: failing, points: 10 }),
      fallback: new MemoryCallCounter({ points: 10, durationSeconds: 60, now: () => 0 }),
      name: 'Redis call-limit counters',
      log: (line) => lines.push(line),
    });
    expect(await counter.consume('client:a')).toEqual({ allowed: true, remaining: 9, resetsAtMs: 60_000 });
    expect(lines).toHaveLength(1);
  });
});

describe('leasedCounter: windows', () => {
  const T0 = 1_800_000_000_000;
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * A counter whose client:a window runs from T0 + 10 s to T0 + 70 s. Ended leases are swept once a
   * minute, from the first call on (another key's, at T0): the one at T0 + 60 s sweeps before client:a's
   * window ends, so that at its end the lease is still there and only its own time says it is over.
   */
  async function counterWithWindowAt10s(points: number) {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const [counter] = instances(1, points).counters;
    await counter!.consume('client:b');
    vi.setSystemTime(T0 + 10_000);
    return counter!;
  }

  it('a new window is the whole limit again: what was left of a batch is not carried over', async () => {
    const counter = await counterWithWindowAt10s(100);
    const first = await counter.consume('client:a');
    expect(first.resetsAtMs).toBe(T0 + 70_000);
    vi.setSystemTime(T0 + 60_000);
    await counter.consume('client:b');
    // The window ends at its reset time exactly, in the store as in the lease.
    vi.setSystemTime(first.resetsAtMs);
    expect(await oneByOne(counter, 200)).toBe(100);
  });

  it('a sweep keeps the leases of windows still running: their calls are served', async () => {
    const counter = await counterWithWindowAt10s(100);
    await counter.consume('client:a');
    // The sweep at T0 + 60 s drops client:b's ended lease, not client:a's batch (4 calls left).
    vi.setSystemTime(T0 + 60_000);
    await counter.consume('client:b');
    expect(await oneByOne(counter, 200)).toBe(99);
  });

  it('a client refused in one window is served again in the next', async () => {
    const counter = await counterWithWindowAt10s(3);
    expect(await oneByOne(counter, 5)).toBe(3);
    vi.setSystemTime(T0 + 60_000);
    await counter.consume('client:b');
    vi.setSystemTime(T0 + 70_000);
    expect(await counter.consume('client:a')).toEqual({ allowed: true, remaining: 2, resetsAtMs: T0 + 130_000 });
  });
});
