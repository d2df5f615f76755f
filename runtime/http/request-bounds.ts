import type { Context, Middleware, Next } from 'koa';
import { badRequest } from '../errors/index.ts';
import { malformedQueryParameter } from './query-encoding.ts';

/**
 * Header fields one request may carry (MAX_HEADERS). Browsers send about 20. Node's own cap is 2,000
 * (server.maxHeadersCount, left at its default: beyond it Node refuses the request with 431 before
 * any middleware runs), so a bound set here must stay below it.
 */
export const DEFAULT_MAX_HEADERS = 100;

/** Query parameters one request may carry (MAX_QUERY_PARAMETERS). No operation reads more than a handful. */
export const DEFAULT_MAX_QUERY_PARAMETERS = 100;

export interface RequestBoundsOptions {
  /** Header fields accepted at most, repeated names counted each time. Default DEFAULT_MAX_HEADERS. */
  readonly maxHeaders?: number;
  /** Query parameters accepted at most, repeated names counted each time. Default DEFAULT_MAX_QUERY_PARAMETERS. */
  readonly maxQueryParameters?: number;
}

/**
 * Bounds on how many headers and query parameters a request may have, checked before any other
 * check reads them: every later step (credential checks, filters, the log's redaction) walks them,
 * so their count bounds the work one request costs. Beyond a bound: 400 `too_many_headers` or
 * `too_many_parameters`, whose `field` names the first one past it. A query parameter that is not
 * well-formed percent-encoded UTF-8 is refused here too, for every operation alike (400
 * `invalid_parameter` naming it), before any reader takes it leniently.
 *
 * @example
 * app.use(requestBounds({ maxHeaders: 50, maxQueryParameters: 20 }));
 */
export function requestBounds({
  maxHeaders = DEFAULT_MAX_HEADERS,
  maxQueryParameters = DEFAULT_MAX_QUERY_PARAMETERS,
}: RequestBoundsOptions = {}): Middleware {
  return function requestBoundsMiddleware(ctx: Context, next: Next) {
    const raw = ctx.req.rawHeaders;
    if (raw.length > maxHeaders * 2) {
      throw badRequest(
        'too_many_headers',
        `the request has more than ${maxHeaders} header fields; send at most ${maxHeaders}`,
        { field: raw[maxHeaders * 2]! },
      );
    }
    if (ctx.querystring !== '') {
      const extra = parameterPast(ctx.querystring, maxQueryParameters);
      if (extra !== undefined) {
        throw badRequest(
          'too_many_parameters',
          `the query string has more than ${maxQueryParameters} parameters; send at most ${maxQueryParameters}`,
          { field: extra },
        );
      }
      const malformed = malformedQueryParameter(ctx.querystring);
      if (malformed !== undefined) {
        throw badRequest(
          'invalid_parameter',
          `the query parameter "${malformed}" is not well-formed: percent-encode its UTF-8 bytes (%XX)`,
          { field: malformed },
        );
      }
    }
    return next();
  };
}

/** The name of the parameter after the first `max`, or undefined when there are no more than `max`. */
function parameterPast(query: string, max: number): string | undefined {
  // Parameters are separated by '&' (empty ones are not counted): with no more than max - 1 of them
  // there cannot be too many, and most queries are answered without parsing them here at all.
  let separators = 0;
  for (let at = query.indexOf('&'); at !== -1 && separators < max; at = query.indexOf('&', at + 1)) separators += 1;
  if (separators < max) return undefined;
  let seen = 0;
  for (const name of new URLSearchParams(query).keys()) {
    seen += 1;
    if (seen > max) return name;
  }
  return undefined;
}
