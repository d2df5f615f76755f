import type { Context } from 'koa';
import type { RouteHandler } from '../routing/index.ts';
import { setResponseHeader } from '../http/headers.ts';

/** A deprecated version: since when, when it goes away, and which version replaces it. */
export interface Deprecation {
  /** ISO 8601 date or time the version was deprecated. */
  readonly since: string;
  /** ISO 8601 date or time after which the version may stop answering. */
  readonly sunset: string;
  /** The version that replaces it (`v2`). */
  readonly successor: string;
}

/** The headers of a deprecated version's responses: Deprecation (RFC 9745), Sunset (RFC 8594), Link to the successor. */
export function deprecationHeaders(ctx: Context, deprecation: Deprecation, version: string, baseUrl: string): void {
  setResponseHeader(ctx, 'Deprecation', `@${Math.floor(new Date(deprecation.since).getTime() / 1000)}`);
  setResponseHeader(ctx, 'Sunset', new Date(deprecation.sunset).toUTCString());
  const successorPath = ctx.path.replace(new RegExp(`/${version}(/|$)`), `/${deprecation.successor}$1`);
  ctx.append('Link', `<${baseUrl}${successorPath}>; rel="successor-version"`);
}

/**
 * Wraps a route handler of a deprecated version so every response, errors included, says so. A
 * version that is not deprecated gets its handler back unchanged (no cost per request).
 *
 * @example
 * const handle = withDeprecation(handlers.read, { since: '2026-11-01', sunset: '2027-06-30', successor: 'v2' }, 'v1', baseUrl);
 */
export function withDeprecation(
  handler: RouteHandler,
  deprecation: Deprecation | undefined,
  version: string,
  baseUrl: string,
): RouteHandler {
  if (deprecation === undefined) return handler;
  return (ctx, params) => {
    deprecationHeaders(ctx, deprecation, version, baseUrl);
    return handler(ctx, params);
  };
}
