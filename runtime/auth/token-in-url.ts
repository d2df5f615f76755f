import type { Context, Middleware, Next } from 'koa';
import { badRequest } from '../errors/index.ts';

/** Query parameters that carry credentials by common convention (OAuth's access_token among them). */
export const CREDENTIAL_PARAMETERS = ['access_token', 'token', 'bearer', 'bearer_token', 'auth', 'authorization', 'api_key', 'apikey', 'key', 'jwt', 'id_token', 'refresh_token'] as const;

export interface RejectTokenInUrlOptions {
  /** Parameter names refused (compared lowercase, hyphens as underscores). Default CREDENTIAL_PARAMETERS. */
  parameters?: readonly string[];
}

const normalise = (name: string) => name.toLowerCase().replaceAll('-', '_');

/**
 * A token is never placed in the URL (conventions: authentication 3): a request whose query string
 * carries a credential parameter gets 400 token_in_url and is not authenticated, even with a valid
 * Authorization header beside it — URLs end up in logs and browser histories.
 *
 * @example
 * app.use(rejectTokenInUrl());
 */
export function rejectTokenInUrl({ parameters = CREDENTIAL_PARAMETERS }: RejectTokenInUrlOptions = {}): Middleware {
  const refused = new Set(parameters.map(normalise));
  return function rejectTokenInUrlMiddleware(ctx: Context, next: Next) {
    if (ctx.querystring === '') return next();
    for (const name of new URLSearchParams(ctx.querystring).keys()) {
      if (refused.has(normalise(name))) {
        throw badRequest('token_in_url', `credentials are sent in the Authorization header only, never in the URL (${name}); this request was not authenticated`, { field: name });
      }
    }
    return next();
  };
}

/** The request path for logs: the query string is left out, since it may hold a credential. */
export function redactedUrl(ctx: Context): string {
  return ctx.querystring === '' ? ctx.path : `${ctx.path}?[redacted]`;
}
