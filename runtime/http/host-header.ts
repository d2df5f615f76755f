import type { Context, Middleware, Next } from 'koa';
import { badRequest } from '../errors/index.ts';
import { isRepeated, requestHeader } from './headers.ts';

/**
 * An HTTP/1.1 request names its Host once (RFC 9112, 3.2): without one, 400 `missing_host`; with
 * two or more, 400 `duplicate_header` (Node keeps the first and drops the rest, and which host was
 * meant is unknowable). Both with the conventions' error body; Node's own check, which answers a
 * bare 400, is turned off where the server is created (listen.ts). HTTP/1.0 needs no Host.
 *
 * @example
 * app.use(checks([supportedHttpVersion(), requireHost(), requireUserAgent()]));
 */
export function requireHost(): Middleware {
  return function requireHostMiddleware(ctx: Context, next: Next) {
    if (requestHeader(ctx, 'host') === '') {
      if (ctx.req.httpVersionMinor >= 1)
        throw badRequest('missing_host', 'an HTTP/1.1 request names its host in a Host header', { field: 'Host' });
    } else if (isRepeated(ctx, 'host')) {
      throw badRequest('duplicate_header', 'send one Host header, not several', { field: 'Host' });
    }
    return next();
  };
}
