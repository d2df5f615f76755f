import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { CallCount, CallCounter } from './call-counter.ts';

export interface LeasedCounterOptions {
  /** The shared limiter (RateLimiterRedis, RateLimiterPostgres): its points and duration are the limit. */
  readonly limiter: RateLimiterAbstract;
  /** The calls allowed per window (the limiter's points). */
  readonly points: number;
  /** What one reservation takes at most: this share of what remains in the window. Default 1/20. */
  readonly share?: number;
  /** ...and never more than this many calls. Default 100. */
  readonly maxLease?: number;
  /** The clock, in ms since the Unix epoch. Default Date.now. */
  readonly now?: () => number;
}

interface Lease {
  /** Calls this process may still serve from what it reserved. */
  left: number;
  /** What the shared store had left for the key after this process's last reservation. */
  sharedRemaining: number;
  /** When the shared window ends (the lease with it). */
  resetsAtMs: number;
}

/**
 * A shared counter that reserves calls in small batches, so that most calls are counted in this
 * process without a round trip to the shared store. A reservation takes `share` of what the store
 * says remains in the window (at most `maxLease`, at least 1), atomically, in one `consume(key, n)`:
 * near the limit every call is reserved on its own, so a burst gets exactly `points` successes across
 * every instance; far from it, an instance contacts the store about once per batch. The limit is
 * never exceeded: the store counts every reserved call. The price: a client that stops calling an
 * instance holding part of a batch may be refused that many calls early in the window (at most a
 * twentieth of what remained when the batch was taken), and X-RateLimit-Remaining counts other
 * instances' unused batches as spent. A reservation that overshoots the limit keeps the calls that fit.
 */
export function leasedCounter({
  limiter,
  points,
  share = 1 / 20,
  maxLease = 100,
  now = Date.now,
}: LeasedCounterOptions): CallCounter {
  const leases = new Map<string, Lease>();
  let nextSweepMs = 0;
  const take = (lease: Lease): CallCount => {
    if (lease.left <= 0) return { allowed: false, remaining: 0, resetsAtMs: lease.resetsAtMs };
    lease.left -= 1;
    return { allowed: true, remaining: lease.sharedRemaining + lease.left, resetsAtMs: lease.resetsAtMs };
  };
  const sweep = (at: number) => {
    for (const [key, lease] of leases) if (lease.resetsAtMs <= at) leases.delete(key);
    nextSweepMs = at + 60_000;
  };
  return {
    consume(key) {
      const at = now();
      if (at >= nextSweepMs) sweep(at);
      const lease = leases.get(key);
      if (lease !== undefined && lease.resetsAtMs > at) {
        if (lease.left > 0) return take(lease);
        // The store refused this window already: nothing is given back before it ends.
        if (lease.sharedRemaining === 0) return take(lease);
      }
      const estimate = lease !== undefined && lease.resetsAtMs > at ? lease.sharedRemaining : points;
      const wanted = Math.max(1, Math.min(maxLease, Math.floor(estimate * share)));
      const settle = (result: RateLimiterRes, granted: number): CallCount => {
        const current = leases.get(key);
        const resetsAtMs = now() + result.msBeforeNext;
        // Concurrent reservations of one key add up; a new window replaces what is left of the old one.
        const merged: Lease =
          current !== undefined && current.resetsAtMs > now()
            ? {
                left: current.left + granted,
                sharedRemaining: Math.min(current.sharedRemaining, Math.max(0, result.remainingPoints)),
                resetsAtMs,
              }
            : { left: granted, sharedRemaining: Math.max(0, result.remainingPoints), resetsAtMs };
        leases.set(key, merged);
        return take(merged);
      };
      return limiter.consume(key, wanted).then(
        (result) => settle(result, wanted),
        (rejection: unknown) => {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          // consumedPoints counts this reservation too: what was left before it is still ours.
          const before = rejection.consumedPoints - wanted;
          return settle(rejection, Math.max(0, Math.min(wanted, points - before)));
        },
      );
    },
  };
}
