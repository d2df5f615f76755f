import type { Context, Middleware, Next } from 'koa';
import { badRequest } from '../errors/index.ts';
import { requestHeader } from '../http/headers.ts';

/**
 * Every call names its client in User-Agent (conventions: authentication 2); a missing or blank one
 * gets 400 missing_user_agent.
 *
 * @example
 * app.use(errorHandler());
 * app.use(requireUserAgent());
 */
export function requireUserAgent(): Middleware {
  return function requireUserAgentMiddleware(ctx: Context, next: Next) {
    if (requestHeader(ctx, 'user-agent').trim() === '') {
      throw badRequest('missing_user_agent', 'the User-Agent header is required and must name the client', {
        field: 'User-Agent',
      });
    }
    return next();
  };
}
