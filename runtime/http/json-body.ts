import type { Context, Middleware, Next } from 'koa';
import coBody from 'co-body';
import { ApiError, badRequest, payloadTooLarge, toApiError } from '../errors/index.ts';
import { BODY_METHODS, hasRequestBody } from './negotiate-json.ts';

export interface JsonBodyOptions {
  /** Largest accepted body in bytes; larger gets 413 payload_too_large. Default 1 MiB. */
  limitBytes?: number;
}

/** The parsed JSON request body, or undefined when the request carried none. */
export function requestBody(ctx: Context): unknown {
  return (ctx.request as { body?: unknown }).body;
}

/**
 * Reads and parses a JSON request body once, with a size limit, into `ctx.request.body`. Malformed
 * JSON gets 400 malformed_json; a body over the limit gets 413 before it is fully read.
 *
 * @example
 * app.use(jsonBody({ limitBytes: 64 * 1024 }));
 * router.post('/v1/orders', (ctx) => { const order = requestBody(ctx); ... });
 */
export function jsonBody({ limitBytes = 1024 * 1024 }: JsonBodyOptions = {}): Middleware {
  const readBody = async (ctx: Context, next: Next) => {
    try {
      // strict: only objects and arrays at the top level, as JSON resources are.
      (ctx.request as { body?: unknown }).body = await coBody.json(ctx.req, {
        limit: limitBytes,
        strict: true,
        encoding: 'utf8',
      });
    } catch (error) {
      throw bodyError(error, limitBytes);
    }
    await next();
  };
  // Requests without a body (every GET) pass straight on, without an async frame of their own.
  return function jsonBodyMiddleware(ctx: Context, next: Next) {
    return BODY_METHODS.has(ctx.method) && hasRequestBody(ctx) ? readBody(ctx, next) : next();
  };
}

function bodyError(error: unknown, limitBytes: number): ApiError {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') return payloadTooLarge(limitBytes);
  if (type === 'entity.parse.failed' || error instanceof SyntaxError) {
    return badRequest('malformed_json', 'the request body is not well-formed JSON');
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ApiError(415, 'unsupported_media_type', 'the request body must be UTF-8 JSON');
  }
  if (type === 'request.size.invalid' || type === 'request.aborted') {
    return badRequest('incomplete_body', 'the request body ended before its declared length');
  }
  return toApiError(error);
}
