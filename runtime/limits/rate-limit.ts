import type { Context, Middleware, Next } from 'koa';
import { tooManyRequests } from '../errors/index.ts';
import { limitKey } from './client-key.ts';
import { MemoryCallCounter, type CallCount, type CallCounter } from './call-counter.ts';
import { setResponseHeader } from '../http/headers.ts';

export interface RateLimitOptions {
  /** A name for the counters: the path family (`resource`, `service`, `setting`). */
  readonly family: string;
  /** Calls allowed per window. */
  readonly points: number;
  /** The window, in seconds. */
  readonly durationSeconds: number;
  /** Peers whose X-Forwarded-For is believed. Default none. */
  readonly trustedProxies?: readonly string[];
  /** The key a call is counted under. Default: the client, or the address when unauthenticated. */
  readonly keyOf?: (ctx: Context) => string;
  /**
   * Where calls are counted. Default: a MemoryCallCounter of `points` per `durationSeconds`, in this
   * process's memory. flexibleCallCounter() plugs in a rate-limiter-flexible limiter (Redis...).
   */
  readonly counter?: CallCounter;
}

/**
 * Call limits: every counted response carries X-RateLimit-Limit,
 * X-RateLimit-Remaining and X-RateLimit-Reset (Unix epoch seconds); past the limit, 429
 * rate_limit_exceeded with X-RateLimit-Remaining: 0 and Retry-After. Counting is atomic, so a
 * concurrent burst gets exactly `points` successes.
 *
 * @example
 * app.use(rateLimit({ family: 'setting', points: 60, durationSeconds: 60 }));
 */
export function rateLimit({
  family,
  points,
  durationSeconds,
  trustedProxies = [],
  keyOf = (ctx) => limitKey(ctx, trustedProxies),
  counter = new MemoryCallCounter({ points, durationSeconds }),
}: RateLimitOptions): Middleware {
  const limit = String(points);
  // X-RateLimit-Reset changes once a window: its text is made once a window, not once a request.
  let resetSeconds = Number.NaN;
  let resetText = '';
  const apply = (ctx: Context, next: Next, count: CallCount) => {
    const seconds = Math.ceil(count.resetsAtMs / 1000);
    if (seconds !== resetSeconds) {
      resetSeconds = seconds;
      resetText = String(seconds);
    }
    const reset = resetText;
    if (!count.allowed) {
      const retryAfter = Math.max(1, Math.ceil((count.resetsAtMs - Date.now()) / 1000));
      throw tooManyRequests(
        `more than ${points} calls in ${durationSeconds} s to the ${family} paths; retry in ${retryAfter} s`,
        {
          headers: {
            'X-RateLimit-Limit': limit,
            'X-RateLimit-Remaining': '0',
            'X-RateLimit-Reset': reset,
            'Retry-After': String(retryAfter),
          },
        },
      );
    }
    setResponseHeader(ctx, 'X-RateLimit-Limit', limit);
    setResponseHeader(ctx, 'X-RateLimit-Remaining', String(count.remaining));
    setResponseHeader(ctx, 'X-RateLimit-Reset', reset);
    return next();
  };
  return function rateLimitMiddleware(ctx: Context, next: Next) {
    const count = counter.consume(keyOf(ctx));
    return count instanceof Promise ? count.then((settled) => apply(ctx, next, settled)) : apply(ctx, next, count);
  };
}
