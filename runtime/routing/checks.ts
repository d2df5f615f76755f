import type { Context, Middleware, Next } from 'koa';
import { SETTLED } from '../fast-path/sequence.ts';

/**
 * One middleware running several "check" middlewares in turn: ones that look at the request (and
 * may set a response header or ctx.state) and then call next() once, with nothing to do after it,
 * such as requireUserAgent(), negotiateJson(), authenticate() or rateLimit(). Each would otherwise
 * be a layer of the Koa chain, with the dispatch and promise that costs on every request; here a
 * check that passes synchronously costs a function call. A check that throws, rejects, or does not
 * call next() stops the sequence, as it would have stopped the chain.
 *
 * Not for middleware with work after `await next()`: that work would run before the later checks.
 *
 * @example
 * app.use(checks([requireUserAgent(), negotiateJson(), authenticate({ store })]));
 */
export function checks(middlewares: readonly Middleware[]): Middleware {
  return function checksMiddleware(ctx: Context, next: Next) {
    let called = false;
    const passed: Next = () => {
      called = true;
      return SETTLED;
    };
    const run = (from: number): Promise<unknown> => {
      for (let index = from; index < middlewares.length; index += 1) {
        called = false;
        const result: unknown = middlewares[index]!(ctx, passed);
        // SETTLED comes back only from `return next()`: the check passed synchronously.
        if (result !== SETTLED) return Promise.resolve(result).then(() => (called ? run(index + 1) : undefined));
      }
      return next();
    };
    return run(0);
  };
}
