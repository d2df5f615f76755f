import type { Context, Middleware, Next } from 'koa';
import { cacheHeadersStep, type CacheHeadersOptions } from '../caching/cache-headers.ts';
import { toApiError } from '../errors/index.ts';
import { renderError, type ErrorHandlerOptions } from '../http/index.ts';
import type { ResponseStep } from '../http/response-step.ts';
import { settledNow, SETTLED } from '../fast-path/sequence.ts';
import { compressionStep, type CompressionOptions } from './compression.ts';
import { jsonResponseStep, type JsonResponseOptions } from './json-response.ts';
import { serverHeadersStep, type ServerHeadersOptions } from './server-headers.ts';

export type ConventionalResponseOptions = ServerHeadersOptions &
  CacheHeadersOptions &
  CompressionOptions &
  JsonResponseOptions &
  ErrorHandlerOptions;

/**
 * The response side of the conventions in one layer, equivalent to mounting, outermost first,
 * serverHeaders(), cacheHeaders(), compression(), jsonResponse() and errorHandler(): the same steps
 * with the same options and defaults, in the same order. As one layer, a request whose handler
 * finishes synchronously passes through all of them without a promise; mount the rest with
 * sequence() to keep it that way.
 *
 * @example
 * app.use(sequence([conventionalResponse({ server: 'orders-api' }), checks([requireUserAgent()]), dispatch(routes)]));
 */
export function conventionalResponse(options: ConventionalResponseOptions = {}): Middleware {
  // Outermost first, as the separate middlewares would be mounted; leave halves run innermost first.
  const steps: readonly ResponseStep[] = [
    serverHeadersStep(options),
    cacheHeadersStep(options),
    compressionStep(options),
    jsonResponseStep(options),
  ];
  const { report, documentFor } = options;
  const leave = (ctx: Context, from: number): Promise<unknown> => {
    for (let index = from; index >= 0; index -= 1) {
      const result = steps[index]!.leave?.(ctx);
      if (!settledNow(result)) return (result as Promise<void>).then(() => leave(ctx, index - 1));
    }
    return SETTLED;
  };
  const innermost = steps.length - 1;
  const rendered = (ctx: Context, thrown: unknown) => {
    renderError(ctx, toApiError(thrown), report, documentFor);
    return leave(ctx, innermost);
  };
  return function conventionalResponseMiddleware(ctx: Context, next: Next) {
    for (const step of steps) step.enter?.(ctx);
    let downstream: unknown;
    try {
      downstream = next();
    } catch (thrown) {
      return rendered(ctx, thrown);
    }
    if (settledNow(downstream)) return leave(ctx, innermost);
    return (downstream as Promise<unknown>).then(
      () => leave(ctx, innermost),
      (thrown: unknown) => rendered(ctx, thrown),
    );
  };
}
