import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { leasedCounter } from '../../../runtime/limits/index.ts';

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
});
