import type { Context, Middleware, Next } from 'koa';
import { requestHeader, setResponseHeader } from './headers.ts';

/**
 * Request headers a browser page may send: those the conventions read. User-Agent among them: a
 * page (the docs page's Try it out) may name it, which some browsers send and others drop.
 */
export const DEFAULT_CORS_ALLOW_HEADERS = [
  'Authorization',
  'User-Agent',
  'Content-Type',
  'If-Match',
  'If-None-Match',
  'If-Modified-Since',
  'Prefer',
  'X-Pretty-Print',
  'X-Result-Fields',
  'X-Expansion-Fields',
  'X-Request-Id',
] as const;

/**
 * Response headers a browser page may read besides the CORS-safelisted ones (Cache-Control,
 * Content-Language, Content-Length, Content-Type, Expires, Last-Modified, Pragma): every other
 * header the conventions answer with.
 */
export const DEFAULT_CORS_EXPOSE_HEADERS = [
  'ETag',
  'Location',
  'Link',
  'Allow',
  'X-Total-Count',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'WWW-Authenticate',
  'X-Request-Id',
  'Preference-Applied',
  'Deprecation',
  'Sunset',
] as const;

/** Methods a preflight is told the API takes (a path that lacks one still answers 405 to the request itself). */
export const DEFAULT_CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** How long a browser may keep a preflight's answer, seconds. */
export const DEFAULT_CORS_MAX_AGE_SECONDS = 600;

export interface CorsOptions {
  /** Origins allowed to call (`https://app.example.com`, compared exactly), or `'*'` for any. */
  readonly origins: readonly string[] | '*';
  /** Access-Control-Allow-Credentials (cookies, TLS client certificates): refused with `'*'`. Default false: bearer tokens need none. */
  readonly allowCredentials?: boolean;
  readonly allowHeaders?: readonly string[];
  readonly exposeHeaders?: readonly string[];
  readonly methods?: readonly string[];
  readonly maxAgeSeconds?: number;
}

/**
 * Cross-origin calls from browser pages (the Fetch standard's CORS protocol). A preflight (OPTIONS
 * with Origin and Access-Control-Request-Method) is answered here, 204, before anything that would
 * ask it for a token or count it against a call limit: a browser sends neither with it. Any other
 * request from an allowed origin carries Access-Control-Allow-Origin and the exposed headers, on
 * errors too (a page must read a 401 or a 429). A request without Origin, or from an origin not
 * allowed, gets no CORS header at all; mount nothing when no origin is allowed.
 *
 * @example
 * app.use(cors({ origins: ['https://app.example.com'] }));
 */
export function cors(options: CorsOptions): Middleware {
  const { origins, allowCredentials = false } = options;
  if (origins === '*' && allowCredentials)
    throw new Error('cors: origins "*" cannot be combined with allowCredentials (browsers refuse it)');
  const allowed = origins === '*' ? undefined : new Set(origins);
  const exposed = (options.exposeHeaders ?? DEFAULT_CORS_EXPOSE_HEADERS).join(', ');
  const preflightHeaders: ReadonlyArray<readonly [string, string]> = [
    ['Access-Control-Allow-Methods', (options.methods ?? DEFAULT_CORS_METHODS).join(', ')],
    ['Access-Control-Allow-Headers', (options.allowHeaders ?? DEFAULT_CORS_ALLOW_HEADERS).join(', ')],
    ['Access-Control-Max-Age', String(options.maxAgeSeconds ?? DEFAULT_CORS_MAX_AGE_SECONDS)],
  ];
  const allowOrigin = (ctx: Context, origin: string): boolean => {
    if (allowed === undefined) {
      setResponseHeader(ctx, 'Access-Control-Allow-Origin', '*');
      return true;
    }
    // The answer depends on Origin whenever origins are listed: caches must keep one per origin.
    ctx.vary('Origin');
    if (!allowed.has(origin)) return false;
    setResponseHeader(ctx, 'Access-Control-Allow-Origin', origin);
    if (allowCredentials) setResponseHeader(ctx, 'Access-Control-Allow-Credentials', 'true');
    return true;
  };
  return function corsMiddleware(ctx: Context, next: Next) {
    const origin = requestHeader(ctx, 'origin');
    if (origin === '') return next();
    const preflight = ctx.method === 'OPTIONS' && requestHeader(ctx, 'access-control-request-method') !== '';
    const isAllowed = allowOrigin(ctx, origin);
    if (preflight) {
      if (isAllowed) for (const [name, value] of preflightHeaders) setResponseHeader(ctx, name, value);
      ctx.status = 204;
      return;
    }
    if (isAllowed) setResponseHeader(ctx, 'Access-Control-Expose-Headers', exposed);
    return next();
  };
}

/**
 * CORS_ORIGINS: unset or empty, no origin (no CORS at all); `*`, any origin; else a comma-separated
 * list of exact origins (`scheme://host[:port]`, no path). Throws on anything else.
 */
export function corsOriginsFrom(raw: string | undefined): readonly string[] | '*' | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (raw.trim() === '*') return '*';
  return raw.split(',').map((entry) => {
    const origin = entry.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new Error(
        `CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port], no path or trailing slash), nor "*"`,
      );
    }
    return origin;
  });
}
