import type { Context, Middleware, Next } from 'koa';
import { expansionRequested } from '../representation/index.ts';
import { presentationOf } from './serialize.ts';

/**
 * Checks, before any handler runs, the request headers that only shape the JSON of the answer:
 * X-Pretty-Print and X-Expansion-Fields, each `true` or `false` (any case, surrounding spaces
 * allowed). Either one otherwise gets 400 `invalid_header` naming it.
 *
 * Why up front: handlers read these headers when they render the answer, and a handler that writes
 * renders after it commits, so a bad value found then would answer 400 for a change already made.
 * Mount it before any handler that writes; it passes synchronously.
 *
 * @example
 * app.use(errorHandler());
 * app.use(presentationHeaders());
 */
export function presentationHeaders(): Middleware {
  return function presentationHeadersMiddleware(ctx: Context, next: Next) {
    presentationOf(ctx);
    expansionRequested(ctx);
    return next();
  };
}
