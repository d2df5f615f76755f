import type { Context, Middleware, Next } from 'koa';
import { badRequest } from '../errors/index.ts';
import { rememberRecent } from '../caching/recent-results.ts';

/** Query parameters that carry credentials by common convention (OAuth's access_token among them). */
export const CREDENTIAL_PARAMETERS = [
  'access_token',
  'token',
  'bearer',
  'bearer_token',
  'auth',
  'authorization',
  'api_key',
  'apikey',
  'key',
  'jwt',
  'id_token',
  'refresh_token',
] as const;

export interface RejectTokenInUrlOptions {
  /** Parameter names refused (compared lowercase, hyphens as underscores). Default CREDENTIAL_PARAMETERS. */
  parameters?: readonly string[];
}

/**
 * A query parameter's name as compared, in parts: percent-decoded (twice at most: a name encoded
 * twice over is still the same name to whoever decodes it), lowercase, hyphens, dots and spaces as
 * underscores, and split at brackets, so `access_token[]`, `Access-Token`, `access%5Ftoken` and
 * `auth[password]` are all read as the names they spell.
 */
export function parameterNameParts(name: string): string[] {
  let text = name;
  for (let round = 0; round < 2 && /%[0-9a-f]{2}/i.test(text); round += 1) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text
    .toLowerCase()
    .replace(/[-.\s+]/g, '_')
    .split(/[[\]]+/)
    .filter((part) => part !== '');
}

const normalise = (name: string) => parameterNameParts(name).join('_');

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
    for (const name of new URLSearchParams(query).keys())
      if (parameterNameParts(name).some((part) => refused.has(part))) return name;
    return '';
  });
  return function rejectTokenInUrlMiddleware(ctx: Context, next: Next) {
    if (ctx.querystring === '') return next();
    const name = credentialIn(ctx.querystring);
    if (name !== '') {
      throw badRequest(
        'token_in_url',
        `credentials are sent in the Authorization header only, never in the URL (${name}); this request was not authenticated`,
        { field: name },
      );
    }
    return next();
  };
}

const credentialNames = (parameters: readonly string[]) => new Set(parameters.map(normalise));
const DEFAULT_CREDENTIAL_NAMES = credentialNames(CREDENTIAL_PARAMETERS);

/**
 * Words that make a parameter name credential-like wherever they stand in it (`client_secret`,
 * `x-api-key`, `userPassword`, `accesstoken`); and words that do only as a whole word between
 * underscores (`key`, `auth`, `pass`, `sig`), which are also parts of harmless names (`monkey`, `author`).
 */
const CREDENTIAL_SUBSTRINGS =
  /token|secret|passw|pwd|apikey|api_key|credential|signature|jwt|bearer|session|cookie|private/;
const CREDENTIAL_WORDS = new Set(['key', 'auth', 'authorization', 'pass', 'sig', 'otp', 'pin']);

/** Whether a name (its parts, parameterNameParts()) is credential-like: the log redacts its value. */
function credentialLike(parts: readonly string[], parameters: ReadonlySet<string>): boolean {
  return parts.some(
    (part) =>
      parameters.has(part) ||
      CREDENTIAL_SUBSTRINGS.test(part) ||
      part.split('_').some((word) => CREDENTIAL_WORDS.has(word)),
  );
}

/**
 * The query string for logs: the value of every credential-like parameter replaced by `[redacted]`
 * (`q=apple&access_token=[redacted]`), the rest as sent; '' when there is none. Credential-like:
 * a refused credential name (`parameters`, default CREDENTIAL_PARAMETERS) or a name holding a word
 * such as token, secret, password, api_key or key, however it is spelled (case, hyphens, brackets,
 * percent-encoding, see parameterNameParts()).
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
      return credentialLike(parameterNameParts(rawName), parameters) ? `${rawName}=[redacted]` : pair;
    })
    .join('&');
}

/** The request path for logs: the query string is left out, since it may hold a credential. */
export function redactedUrl(ctx: Context): string {
  return ctx.querystring === '' ? ctx.path : `${ctx.path}?[redacted]`;
}
