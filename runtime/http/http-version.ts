import type { Context, Middleware, Next } from 'koa';
import { httpVersionNotSupported } from '../errors/index.ts';

/**
 * 505 `http_version_not_supported` for a request Node parsed but that is not HTTP/1.x (an
 * `HTTP/2.0` request line over plain HTTP/1 framing): the server speaks HTTP/1.0 and HTTP/1.1.
 * Versions Node cannot parse at all get the same answer from answerClientErrors().
 *
 * @example
 * app.use(checks([supportedHttpVersion(), requireUserAgent()]));
 */
export function supportedHttpVersion(): Middleware {
  return function supportedHttpVersionMiddleware(ctx: Context, next: Next) {
    if (ctx.req.httpVersionMajor !== 1) throw httpVersionNotSupported();
    return next();
  };
}
