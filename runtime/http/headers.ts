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

/**
 * True when the request carries the header more than once. Node keeps only the first of a repeated
 * Authorization (and a few others), so only the raw list tells; `name` is lowercase.
 */
export function isRepeated(ctx: Context, name: string): boolean {
  const raw = ctx.req.rawHeaders;
  let seen = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const header = raw[index]!;
    if (header.length === name.length && header.toLowerCase() === name && ++seen > 1) return true;
  }
  return false;
}

/** A response header set so far ('' when unset). */
export function responseHeader(ctx: Context, name: string): string {
  const value = ctx.res.getHeader(name);
  return value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
}

/**
 * The body's length in bytes: the Content-Length set with it, read as is (Koa's body setter stores a
 * number), else Koa's own getter, which parses the header back from text or measures the body.
 */
export function declaredBodyLength(ctx: Context): number | undefined {
  const declared = ctx.res.getHeader('Content-Length');
  return typeof declared === 'number' ? declared : ctx.response.length;
}

/** Sets one response header, as ctx.set does (nothing once the headers are sent). */
export function setResponseHeader(ctx: Context, name: string, value: string): void {
  if (!ctx.res.headersSent) ctx.res.setHeader(name, value);
}

/**
 * Turns a JSON value into the response's text at once, or answers undefined to leave it to later.
 * jsonResponse() puts its own on ctx.state on the way in (see setJsonBody).
 */
export type JsonSerialiser = (ctx: Context, value: unknown) => string | undefined;

/** The ctx.state key under which jsonResponse() leaves its JsonSerialiser. */
export const JSON_SERIALISER_STATE = Symbol('jsonSerialiser');

/**
 * ctx.body = value for a JSON value. Under jsonResponse() the value is serialised here, once, and the
 * body set to its text: Koa's setter walks a stream, web-stream, Blob and Response check, removes
 * Content-Length and reads the type back for every object body, and a second time when the text
 * replaces it, a measurable share of a GET (BENCHMARKS.md). Elsewhere the value becomes the body
 * as it is, with the type named first (Koa would otherwise look 'json' up in its MIME table).
 */
export function setJsonBody(ctx: Context, value: unknown): void {
  const serialise = (ctx.state as Record<symbol, unknown>)[JSON_SERIALISER_STATE] as JsonSerialiser | undefined;
  const text = serialise?.(ctx, value);
  if (text !== undefined) {
    ctx.body = text;
    return;
  }
  setResponseHeader(ctx, 'Content-Type', JSON_CONTENT_TYPE);
  ctx.body = value;
}
