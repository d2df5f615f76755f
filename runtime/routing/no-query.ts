import type { Context } from 'koa';
import { badRequest } from '../errors/index.ts';
import type { PathParams, RouteHandler } from './route.ts';

/**
 * A handler for an operation that takes no query parameters (one resource, an aggregate, a setting,
 * a write): a request that sends one answers 400 `unknown_parameter` naming it, before the handler
 * runs, as a list answers for a parameter it does not know. Read and ignored instead, `?fields=a`
 * or `?expand=true` would look to the caller as if it had been honoured.
 *
 * @example
 * { method: 'GET', path: '/v1/orders/:order_id', family: 'resource', handle: refusingQuery(handlers.read) }
 */
export function refusingQuery(handler: RouteHandler): RouteHandler {
  return (ctx: Context, params: PathParams) => {
    if (ctx.querystring !== '') {
      // The query's encoding was checked with the request's bounds (http/query-encoding.ts). A query
      // of separators alone (`?&`) names no parameter.
      const [name] = new URLSearchParams(ctx.querystring).keys();
      if (name !== undefined) throw unknownParameter(name);
    }
    return handler(ctx, params);
  };
}

function unknownParameter(name: string) {
  return badRequest(
    'unknown_parameter',
    `${name === '' ? 'A parameter with no name' : name} is not a parameter of this operation, which takes none; fields, expansion and layout are asked with the X-Result-Fields, X-Expansion-Fields and X-Pretty-Print headers`,
    { field: name },
  );
}
