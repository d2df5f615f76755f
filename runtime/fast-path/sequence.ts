import type { Context, Middleware, Next } from 'koa';

/**
 * What a middleware run by `sequence()` or `checks()` gets back from next() when everything after
 * it finished synchronously: an already settled promise, so `await next()` and `next().then(...)`
 * work as usual, while code that compares the result with SETTLED can carry on without waiting a
 * turn of the microtask queue.
 */
export const SETTLED: Promise<void> = Promise.resolve();

/** True when a middleware's result says it (and everything after it) has finished. */
export function settledNow(result: unknown): boolean {
  return (
    result === SETTLED || result === undefined || typeof (result as PromiseLike<unknown> | null)?.then !== 'function'
  );
}

/**
 * koa-compose for middleware that is mostly synchronous: runs `middlewares` in order, each with a
 * next() that runs the rest, and returns what the first returns. Unlike koa-compose it adds no
 * promise per layer: a layer that finishes synchronously hands SETTLED back to the one before it, so
 * a whole request can pass through several layers with one promise (Koa's own) instead of one per
 * layer. A middleware that throws rejects, as with koa-compose.
 *
 * @example
 * app.use(sequence([conventionalResponse(), drain.middleware(), checks([requireUserAgent()]), dispatch(routes)]));
 */
export function sequence(middlewares: readonly Middleware[]): Middleware {
  const layers = [...middlewares];
  return function sequenceMiddleware(ctx: Context, next: Next) {
    const run = (index: number): Promise<unknown> => {
      if (index === layers.length) return next();
      let result: unknown;
      try {
        result = layers[index]!(ctx, () => run(index + 1));
      } catch (thrown) {
        return Promise.reject(thrown);
      }
      return settledNow(result) ? SETTLED : (result as Promise<unknown>);
    };
    return run(0);
  };
}
