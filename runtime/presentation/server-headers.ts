import type { Context, Middleware, Next } from 'koa';
import { setResponseHeader } from '../http/headers.ts';

export interface ServerHeadersOptions {
  /** The Server header's value. Default `conventional-api`. */
  server?: string;
  /** X-Powered-By's value; not sent unless given. */
  poweredBy?: string;
}

/**
 * Rewrites the Server header to a value you choose, sends X-Powered-By only when configured, and
 * `X-Content-Type-Options: nosniff` always (JSON must never be sniffed into HTML).
 *
 * @example
 * app.use(serverHeaders({ server: 'orders-api', poweredBy: 'conventional-api' }));
 */
export function serverHeaders({ server = 'conventional-api', poweredBy }: ServerHeadersOptions = {}): Middleware {
  // Not async: a middleware with nothing to do after next() returns its promise instead of awaiting it.
  return function serverHeadersMiddleware(ctx: Context, next: Next) {
    setResponseHeader(ctx, 'Server', server);
    setResponseHeader(ctx, 'X-Content-Type-Options', 'nosniff');
    // Nothing else sends X-Powered-By (neither Node nor Koa), so unless configured there is none.
    if (poweredBy !== undefined) setResponseHeader(ctx, 'X-Powered-By', poweredBy);
    return next();
  };
}
