import type { Context, Middleware, Next } from 'koa';
import { etagOf, matchesIfNoneMatch } from '../caching/entity-tags.ts';
import { formatLastModified, notModifiedSince, parseModifiedSince } from '../caching/modified-since.ts';
import { renderError, toApiError } from '../errors/index.ts';
import { JSON_CONTENT_TYPE } from '../http/index.ts';
import { presentationOf, serializeJson } from './serialize.ts';

/** The ctx.state key where a handler leaves the Date its resource last changed. */
export const LAST_MODIFIED_STATE = 'lastModified';

/** The ctx.state key where the serialiser leaves, on a 304, the length the 200's body would have had. */
export const BODY_LENGTH_STATE = 'jsonBodyLength';

export interface JsonResponseOptions {
  /** Pretty-print unless the request says `X-Pretty-Print: false`. Default true. */
  prettyByDefault?: boolean;
}

function isPlainJson(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  if (Array.isArray(body)) return true;
  return Object.getPrototypeOf(body) === Object.prototype;
}

/**
 * The one serialiser: turns a handler's plain object or array into bytes exactly once (pretty or
 * compact, with X-Pretty-Print saying which), with `Content-Type: application/json;charset=UTF-8`.
 * For a 200 GET it then tags those same bytes (ETag, and the conventions' E-Tag), sends
 * Last-Modified in ISO 8601, and answers 304 with no body when If-None-Match (weak comparison, lists,
 * `*`) or, failing that, If-Modified-Since (ISO 8601 or HTTP-date) says the client is current.
 * Mount it outside the error handler so error bodies are serialised the same way.
 *
 * @example
 * app.use(jsonResponse());
 * app.use(errorHandler());
 * app.use((ctx) => { ctx.body = { order_id: 1 }; });
 */
export function jsonResponse({ prettyByDefault = true }: JsonResponseOptions = {}): Middleware {
  return async function jsonResponseMiddleware(ctx: Context, next: Next) {
    await next();
    if (!isPlainJson(ctx.body)) return;
    let presentation;
    try {
      presentation = presentationOf(ctx, prettyByDefault);
    } catch (error) {
      renderError(ctx, toApiError(error));
      presentation = { pretty: prettyByDefault };
    }
    const text = serializeJson(ctx.body, presentation);
    // The type first, so Koa does not guess one from the text.
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = text;
    ctx.set('X-Pretty-Print', presentation.pretty ? 'true' : 'false');
    if (ctx.status !== 200 || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return;

    const tag = etagOf(text);
    ctx.set('ETag', tag);
    ctx.set('E-Tag', tag);
    const lastModified = ctx.state[LAST_MODIFIED_STATE] as Date | undefined;
    if (lastModified instanceof Date && !Number.isNaN(lastModified.getTime())) ctx.set('Last-Modified', formatLastModified(lastModified));
    if (isNotModified(ctx, tag, lastModified)) {
      ctx.state[BODY_LENGTH_STATE] = ctx.response.length;
      ctx.status = 304;
      ctx.body = null;
      ctx.remove('Content-Type');
      ctx.remove('Content-Length');
    }
  };
}

function isNotModified(ctx: Context, tag: string, lastModified: Date | undefined): boolean {
  const ifNoneMatch = ctx.get('If-None-Match');
  if (ifNoneMatch !== '') return matchesIfNoneMatch(ifNoneMatch, tag);
  const since = parseModifiedSince(ctx.get('If-Modified-Since'));
  return since !== undefined && lastModified instanceof Date && notModifiedSince(lastModified, since);
}
