import type { Context, Middleware } from 'koa';
import { responseHeader, setResponseHeader } from '../http/headers.ts';
import { stepMiddleware, type ResponseStep } from '../http/response-step.ts';

export interface CacheHeadersOptions {
  /** Request headers that change the representation. */
  vary?: readonly string[];
  /** Cache-Control of successful GETs. Default `private, no-cache`: may be stored, revalidated with the tag each time. */
  cacheControl?: string;
}

export const DEFAULT_VARY = [
  'Accept-Encoding',
  'X-Result-Fields',
  'X-Expansion-Fields',
  'X-Pretty-Print',
  'Authorization',
] as const;

/**
 * Vary names every request header that changes the representation, so shared caches never mix
 * them up; Cache-Control fits authenticated data (private, revalidate with the tag). Errors get
 * `no-store`.
 *
 * @example
 * app.use(cacheHeaders({ cacheControl: 'private, max-age=0, must-revalidate' }));
 */
export function cacheHeaders(options: CacheHeadersOptions = {}): Middleware {
  return stepMiddleware(cacheHeadersStep(options));
}

/** cacheHeaders() as a step of conventionalResponse(). */
export function cacheHeadersStep({
  vary = DEFAULT_VARY,
  cacheControl = 'private, no-cache',
}: CacheHeadersOptions = {}): ResponseStep {
  const varyValue = vary.join(', ');
  return {
    enter(ctx: Context) {
      // On the way in, while usually nothing else has named a header yet: then it is set at once,
      // without parsing. Anything named later (a handler's ctx.vary) is merged into it.
      if (responseHeader(ctx, 'Vary') === '') setResponseHeader(ctx, 'Vary', varyValue);
      else ctx.vary(varyValue);
    },
    leave(ctx: Context) {
      const cacheable = (ctx.method === 'GET' || ctx.method === 'HEAD') && (ctx.status === 200 || ctx.status === 304);
      setResponseHeader(ctx, 'Cache-Control', cacheable ? cacheControl : 'no-store');
    },
  };
}
