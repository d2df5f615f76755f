import type { Context, Middleware, Next } from 'koa';
import { methodNotAllowed, notFound } from '../errors/index.ts';
import type { HttpMethod, MatchedRoute, Route } from './route.ts';
import { RouteTree } from './route-tree.ts';
import { setResponseHeader } from '../http/headers.ts';

/**
 * Serves a list of routes: matches the path in a segment tree (constant cost in the number of
 * routes), answers 404 for an unknown path, 405 with Allow for a known path and another method,
 * 204 with Allow for OPTIONS, and treats HEAD as GET. The match is left on `ctx.state.route`.
 *
 * @example
 * app.use(dispatch([{ method: 'GET', path: '/v1/orders', family: 'resource', handle: (ctx) => { ctx.body = []; } }]));
 */
export function dispatch(routes: readonly Route[]): Middleware {
  const tree = new RouteTree();
  for (const route of routes) tree.add(route);
  return function dispatchMiddleware(ctx: Context, _next: Next) {
    const match = tree.match(ctx.path);
    if (match === undefined) throw notFound('path_not_found', `no resource or service at ${ctx.path}`);
    const method = (ctx.method === 'HEAD' ? 'GET' : ctx.method) as HttpMethod;
    const route = match.routes.get(method);
    if (route === undefined) {
      const allowed = allowedMethods(match.routes);
      if (ctx.method === 'OPTIONS') {
        setResponseHeader(ctx, 'Allow', allowed.join(', '));
        ctx.status = 204;
        return;
      }
      throw methodNotAllowed(allowed, ctx.method);
    }
    return serveRoute(ctx, route, method, match.params);
  };
}

/** Leaves the match on `ctx.state.route` and runs the route's handler. */
function serveRoute(ctx: Context, route: Route, method: HttpMethod, params: Record<string, string>): unknown {
  const matched: MatchedRoute = { family: route.family, method, path: route.path, params };
  ctx.state.route = matched;
  return route.handle(ctx, params);
}

/**
 * Serves the open routes (`open: true`: health checks) before anything else of their family, so
 * the family's call limit and token requirement never see them; any other request goes to
 * `otherwise` (the guarded router, which also answers 404, 405 and OPTIONS for the open paths).
 */
export function dispatchOpen(routes: readonly Route[], otherwise: Middleware): Middleware {
  const tree = new RouteTree();
  for (const route of routes) tree.add(route);
  return function dispatchOpenMiddleware(ctx: Context, next: Next) {
    const method = (ctx.method === 'HEAD' ? 'GET' : ctx.method) as HttpMethod;
    const match = tree.match(ctx.path);
    const route = match?.routes.get(method);
    return route === undefined ? otherwise(ctx, next) : serveRoute(ctx, route, method, match!.params);
  };
}

function allowedMethods(routes: ReadonlyMap<HttpMethod, Route>): string[] {
  const methods: string[] = [...routes.keys()];
  if (routes.has('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  return methods;
}
