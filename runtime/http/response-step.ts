import type { Context, Middleware, Next } from 'koa';

/**
 * A response middleware in its two halves: `enter` on the way in (headers every response carries),
 * `leave` on the way out, once the body is known (serialise, tag, compress). Written this way, the
 * same logic serves as a Koa middleware of its own (stepMiddleware) and as one step of
 * conventionalResponse(), which runs them all in one layer.
 */
export interface ResponseStep {
  readonly enter?: (ctx: Context) => void;
  /** May return a promise (compression does, when it compresses). */
  readonly leave?: (ctx: Context) => void | Promise<void>;
}

/** A step as a Koa middleware: enter, the rest of the chain, leave (not after an error: that propagates). */
export function stepMiddleware({ enter, leave }: ResponseStep): Middleware {
  // Without a leave half there is nothing to wait for: the middleware returns next()'s promise.
  if (leave === undefined) {
    return function enterOnly(ctx: Context, next: Next) {
      enter?.(ctx);
      return next();
    };
  }
  return async function enterAndLeave(ctx: Context, next: Next) {
    enter?.(ctx);
    await next();
    await leave(ctx);
  };
}
