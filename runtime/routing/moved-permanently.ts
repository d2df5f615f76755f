import { answerRedirect } from '../http/redirect.ts';
import type { RouteHandler } from './route.ts';

/**
 * The handler of a former path (a collection, service or setting declared `movedFrom` a name in
 * a version): 301 with Location and the link body `{"rel": "self", "href"}` naming the same path
 * with the old prefix `from` replaced by the current one `to`, and the same query string. Only GET
 * routes are made for former paths, so a write there answers 405 and is never redirected.
 *
 * @example
 * { method: 'GET', path: '/v1/purchases/:order_id', family: 'resource', handle: movedPermanently(baseUrl, '/v1/purchases', '/v1/orders') }
 */
export function movedPermanently(baseUrl: string, from: string, to: string): RouteHandler {
  return (ctx) => {
    const rest = ctx.path.startsWith(from) ? ctx.path.slice(from.length) : '';
    const query = ctx.querystring === '' ? '' : `?${ctx.querystring}`;
    answerRedirect(ctx, 301, 'self', `${baseUrl}${to}${rest}${query}`);
  };
}
