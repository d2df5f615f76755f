import type { Context, Middleware, Next } from 'koa';
import { badRequest } from '../errors/index.ts';
import { rememberRecent } from '../caching/recent-results.ts';

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
  const refused = credentialNames(parameters);
  // The credential parameter a query string carries ('' for none), remembered per query string.
  const credentialIn = rememberRecent((query: string) => {
    for (const name of new URLSearchParams(query).keys()) if (refused.has(normalise(name))) return name;
    return '';
  });
  return function rejectTokenInUrlMiddleware(ctx: Context, next: Next) {
    if (ctx.querystring === '') return next();
    const name = credentialIn(ctx.querystring);
    if (name !== '') {
      throw badRequest('token_in_url', `credentials are sent in the Authorization header only, never in the URL (${name}); this request was not authenticated`, { field: name });
    }
    return next();
  };
}

const credentialNames = (parameters: readonly string[]) => new Set(parameters.map(normalise));
const DEFAULT_CREDENTIAL_NAMES = credentialNames(CREDENTIAL_PARAMETERS);

/**
 * The query string for logs: the value of every credential parameter replaced by `[redacted]`
 * (`q=apple&access_token=[redacted]`), the rest as sent; '' when there is none.
 */
export function redactedQuery(ctx: Context, parameters?: ReadonlySet<string>): string {
  if (ctx.querystring === '') return '';
  return parameters === undefined ? redactedWithDefaults(ctx.querystring) : redacted(ctx.querystring, parameters);
}

/** redacted() with the default credential names, remembered per query string (a log line per request). */
const redactedWithDefaults = rememberRecent((query: string) => redacted(query, DEFAULT_CREDENTIAL_NAMES));

function redacted(query: string, parameters: ReadonlySet<string>): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      let name: string;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        name = rawName;
      }
      return parameters.has(normalise(name)) ? `${rawName}=[redacted]` : pair;
    })
    .join('&');
}

/** The request path for logs: the query string is left out, since it may hold a credential. */
export function redactedUrl(ctx: Context): string {
  return ctx.querystring === '' ? ctx.path : `${ctx.path}?[redacted]`;
}
