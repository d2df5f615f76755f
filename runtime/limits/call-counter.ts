import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** What a counter says about one call: whether it is within the limit, and the window's state after it. */
export interface CallCount {
  readonly allowed: boolean;
  /** Calls left in the current window (0 once refused). */
  readonly remaining: number;
  /** When the current window ends, in ms since the Unix epoch. */
  readonly resetsAtMs: number;
}

/**
 * Counts calls per key in fixed windows. An in-process counter answers synchronously, so the
 * middleware adds no promise to each request; a shared one (Redis, a database) answers with a promise.
 */
export interface CallCounter {
  consume(key: string): CallCount | Promise<CallCount>;
}

export interface MemoryCallCounterOptions {
  /** Calls allowed per window. */
  readonly points: number;
  /** The window, in seconds. */
  readonly durationSeconds: number;
  /** The clock, in ms since the Unix epoch. Default Date.now. */
  readonly now?: () => number;
}

interface Window {
  consumed: number;
  readonly resetsAtMs: number;
}

/**
 * The default counter: this process's memory, a fixed window per key starting at its first call.
 * JavaScript runs one call at a time, so counting is atomic: a concurrent burst gets exactly
 * `points` successes. Ended windows are swept at most once per window length, so keys that stop
 * calling do not accumulate.
 */
export class MemoryCallCounter implements CallCounter {
  readonly #points: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, Window>();
  #nextSweepMs = 0;

  constructor({ points, durationSeconds, now = Date.now }: MemoryCallCounterOptions) {
    if (!(points >= 1) || !(durationSeconds > 0))
      throw new RangeError('a call limit needs points >= 1 and durationSeconds > 0');
    this.#points = points;
    this.#windowMs = durationSeconds * 1000;
    this.#now = now;
  }

  consume(key: string): CallCount {
    const now = this.#now();
    if (now >= this.#nextSweepMs) this.#sweep(now);
    let window = this.#windows.get(key);
    if (window === undefined || window.resetsAtMs <= now) {
      window = { consumed: 0, resetsAtMs: now + this.#windowMs };
      this.#windows.set(key, window);
    }
    window.consumed += 1;
    const allowed = window.consumed <= this.#points;
    return { allowed, remaining: allowed ? this.#points - window.consumed : 0, resetsAtMs: window.resetsAtMs };
  }

  /** Keys with a window in progress (for tests and monitoring). */
  get size(): number {
    return this.#windows.size;
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (window.resetsAtMs <= now) this.#windows.delete(key);
    this.#nextSweepMs = now + this.#windowMs;
  }
}

/**
 * Counts with a rate-limiter-flexible limiter, e.g. RateLimiterRedis so that several server
 * processes share one count. The limiter's own points and duration apply.
 *
 * @example
 * rateLimit({ family: 'resource', points: 600, durationSeconds: 60,
 *   counter: flexibleCallCounter(new RateLimiterRedis({ storeClient: redis, points: 600, duration: 60 })) });
 */
export function flexibleCallCounter(limiter: RateLimiterAbstract): CallCounter {
  return {
    async consume(key) {
      try {
        const result = await limiter.consume(key);
        return { allowed: true, remaining: result.remainingPoints, resetsAtMs: Date.now() + result.msBeforeNext };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return { allowed: false, remaining: 0, resetsAtMs: Date.now() + rejection.msBeforeNext };
      }
    },
  };
}
