import type { Context, Middleware, Next } from 'koa';
import { responseHeader, setResponseHeader } from '../http/headers.ts';

export interface CacheHeadersOptions {
  /** Request headers that change the representation. */
  vary?: readonly string[];
  /** Cache-Control of successful GETs. Default `private, no-cache`: may be stored, revalidated with the tag each time. */
  cacheControl?: string;
}

export const DEFAULT_VARY = ['Accept-Encoding', 'X-Result-Fields', 'X-Expansion-Fields', 'X-Pretty-Print', 'Authorization'] as const;

/**
 * Vary names every request header that changes the representation, so shared caches never mix
 * them up; Cache-Control fits authenticated data (private, revalidate with the tag). Errors get
 * `no-store`.
 *
 * @example
 * app.use(cacheHeaders({ cacheControl: 'private, max-age=0, must-revalidate' }));
 */
export function cacheHeaders({ vary = DEFAULT_VARY, cacheControl = 'private, no-cache' }: CacheHeadersOptions = {}): Middleware {
  const varyValue = vary.join(', ');
  return async function cacheHeadersMiddleware(ctx: Context, next: Next) {
    // Before next(), while usually nothing else has named a header yet: then it is set at once,
    // without parsing. Anything named later (a handler's ctx.vary) is merged into it.
    if (responseHeader(ctx, 'Vary') === '') setResponseHeader(ctx, 'Vary', varyValue);
    else ctx.vary(varyValue);
    await next();
    const cacheable = (ctx.method === 'GET' || ctx.method === 'HEAD') && (ctx.status === 200 || ctx.status === 304);
    setResponseHeader(ctx, 'Cache-Control', cacheable ? cacheControl : 'no-store');
  };
}
