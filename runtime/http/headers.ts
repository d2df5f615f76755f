import type { Context } from 'koa';
import { JSON_CONTENT_TYPE } from './media-types.ts';

// Every response passes through a dozen header reads and writes. Koa 3's ctx.set builds arrays
// and closures on each call and ctx.get goes through two layers of delegation, which together
// were a measurable share of a GET (`npm run bench -- --only profile`). These helpers do the same
// for the one-string case directly on Node's objects.

/** A request header ('' when absent). `name` must be lowercase, as Node stores them. */
export function requestHeader(ctx: Context, name: string): string {
  const value = ctx.req.headers[name];
  return typeof value === 'string' ? value : value === undefined ? '' : value.join(', ');
}

/** A response header set so far ('' when unset). */
export function responseHeader(ctx: Context, name: string): string {
  const value = ctx.res.getHeader(name);
  return value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
}

/** Sets one response header, as ctx.set does (nothing once the headers are sent). */
export function setResponseHeader(ctx: Context, name: string, value: string): void {
  if (!ctx.res.headersSent) ctx.res.setHeader(name, value);
}

/**
 * ctx.body = value for a JSON value, naming the type first: Koa would otherwise look 'json' up
 * in its MIME table for every object body.
 */
export function setJsonBody(ctx: Context, value: unknown): void {
  setResponseHeader(ctx, 'Content-Type', JSON_CONTENT_TYPE);
  ctx.body = value;
}
