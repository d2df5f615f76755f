import type { ServerResponse } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import { onResponseClose, renderedErrorOf } from '../http/index.ts';
import { familyOfPath, matchedRoute, RouteTree, type Route } from '../routing/index.ts';
import type { ApiMetrics } from './api-metrics.ts';

export interface RequestMetricsOptions {
  readonly metrics: ApiMetrics;
  /**
   * Every served route, to find the template of a request refused before routing (401, 429...).
   * Default none: such requests are labelled `route="(unmatched)"`.
   */
  readonly routes?: readonly Route[];
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const MEASURED = Symbol('requestMetrics');

/**
 * Counts every request and observes its duration when its response has been sent, labelled by
 * method, route template, path family and status; counts 429 rate_limit_exceeded refusals by family.
 * Labels are bounded: the route template (`/v1/orders/:order_id`) or `(unmatched)`, never the path.
 *
 * @example
 * const metrics = createApiMetrics();
 * app.use(requestMetrics({ metrics, routes }));
 */
export function requestMetrics({ metrics, routes = [] }: RequestMetricsOptions): Middleware {
  const tree = new RouteTree();
  for (const route of routes) tree.add(route);
  function responseClosed(this: ServerResponse & { [MEASURED]?: { ctx: Context; startedAt: number } }) {
    const measured = this[MEASURED];
    if (measured === undefined) return;
    this[MEASURED] = undefined;
    const { ctx, startedAt } = measured;
    const matched = matchedRoute(ctx);
    const family = matched?.family ?? familyOfPath(ctx.path);
    const labels = {
      method: METHODS.has(ctx.method) ? ctx.method : 'OTHER',
      route: matched?.path ?? templateOf(tree, ctx.path),
      family,
      // `aborted`: the connection closed before any status was sent.
      status: this.headersSent ? String(ctx.status) : 'aborted',
    };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, (performance.now() - startedAt) / 1000);
    if (renderedErrorOf(ctx)?.code === 'rate_limit_exceeded') metrics.rateLimitRefusals.inc({ family });
  }
  return function requestMetricsMiddleware(ctx: Context, next: Next) {
    const res = ctx.res as ServerResponse & { [MEASURED]?: { ctx: Context; startedAt: number } };
    res[MEASURED] = { ctx, startedAt: performance.now() };
    onResponseClose(res, responseClosed);
    return next();
  };
}

function templateOf(tree: RouteTree, path: string): string {
  const match = tree.match(path);
  const route = match?.routes.values().next().value;
  return route === undefined ? '(unmatched)' : route.path;
}
