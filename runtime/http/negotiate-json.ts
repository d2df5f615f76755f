import type { Context, Middleware, Next } from 'koa';
import { notAcceptable, unsupportedMediaType } from '../errors/index.ts';
import { requestHeader } from './headers.ts';
import { JSON_CONTENT_TYPE } from './media-types.ts';

export interface NegotiateJsonOptions {
  /** Media types accepted in request bodies. Default: application/json and application/merge-patch+json. */
  bodyTypes?: readonly string[];
}

/** The methods whose request body is read; any other method's body is ignored, whatever its type. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** True when the request carries a body (a length over zero, or a chunked transfer). */
export function hasRequestBody(ctx: Context): boolean {
  const length = requestHeader(ctx, 'content-length');
  if (length !== '') return Number(length) > 0;
  return requestHeader(ctx, 'transfer-encoding') !== '';
}

/**
 * The media-type rules of the conventions: every response is JSON, so a request whose Accept
 * excludes JSON gets 406; a response is sent as gzip or as it is, so an Accept-Encoding that refuses
 * both (`identity;q=0` alone, `*;q=0`) gets 406 too, before any work; a POST, PUT or PATCH body must
 * be JSON, so any other Content-Type gets 415 (other methods' bodies are never read, so their type
 * does not matter).
 *
 * @example
 * app.use(errorHandler());
 * app.use(negotiateJson());
 */
export function negotiateJson({
  bodyTypes = ['application/json', 'application/merge-patch+json', 'application/*+json'],
}: NegotiateJsonOptions = {}): Middleware {
  return function negotiateJsonMiddleware(ctx: Context, next: Next) {
    const accept = requestHeader(ctx, 'accept');
    // The common cases answer at once; anything else goes through full content negotiation, against
    // the type every answer carries, parameter included: `application/json;charset=UTF-8` (what a
    // client reading the documents asks for) is accepted, `application/json;charset=latin1` is not.
    if (
      accept !== '' &&
      accept !== 'application/json' &&
      accept !== '*/*' &&
      ctx.accepts(JSON_CONTENT_TYPE) === false
    ) {
      throw notAcceptable(`this API answers only application/json; the Accept header "${accept}" excludes it`);
    }
    const acceptEncoding = requestHeader(ctx, 'accept-encoding');
    if (acceptEncoding !== '' && ctx.acceptsEncodings('gzip', 'identity') === false) {
      throw notAcceptable(
        `this API sends responses as gzip or unencoded; the Accept-Encoding header "${acceptEncoding}" refuses both`,
      );
    }
    if (BODY_METHODS.has(ctx.method) && hasRequestBody(ctx) && ctx.is(...bodyTypes) === false) {
      const given = ctx.get('Content-Type') || 'none';
      throw unsupportedMediaType(`request bodies must be application/json;charset=UTF-8, not ${given}`);
    }
    return next();
  };
}
