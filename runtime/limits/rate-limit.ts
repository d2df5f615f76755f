import type { Context, Middleware, Next } from 'koa';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors/index.ts';
import { limitKey } from './client-key.ts';

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
  /** Counters (rate-limiter-flexible). Default: in this process's memory, atomic. */
  readonly limiter?: RateLimiterAbstract;
}

/**
 * Call limits (rate-limiter-flexible): every counted response carries X-RateLimit-Limit,
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
  limiter = new RateLimiterMemory({ keyPrefix: `limit:${family}`, points, duration: durationSeconds }),
}: RateLimitOptions): Middleware {
  return async function rateLimitMiddleware(ctx: Context, next: Next) {
    let result: RateLimiterRes;
    try {
      result = await limiter.consume(keyOf(ctx));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw tooManyRequests(`more than ${points} calls in ${durationSeconds} s to the ${family} paths; retry in ${retryAfter} s`, {
        headers: { ...limitHeaders(points, 0, rejection.msBeforeNext), 'Retry-After': String(retryAfter) },
      });
    }
    for (const [name, value] of Object.entries(limitHeaders(points, result.remainingPoints, result.msBeforeNext))) ctx.set(name, value);
    await next();
  };
}

function limitHeaders(limit: number, remaining: number, msBeforeNext: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, remaining)),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + msBeforeNext) / 1000)),
  };
}
