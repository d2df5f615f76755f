import type { Context } from 'koa';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The three path families of the conventions; each gets its own router, rules and call limit. */
export type PathFamily = 'resource' | 'service' | 'setting';

/** Path parameters by name, already percent-decoded. */
export type PathParams = Readonly<Record<string, string>>;

export type RouteHandler = (ctx: Context, params: PathParams) => unknown;

/** One served route: method, path pattern (`:name` segments are parameters) and handler. */
export interface Route {
  readonly method: HttpMethod;
  /** `/v1/orders/:order_id`; a literal segment may contain any character but `/`, e.g. `(list)`. */
  readonly path: string;
  readonly family: PathFamily;
  /**
   * Served without a token and outside the family's call limit: the family's `before` middleware
   * does not run for it (health checks, which a load balancer calls without a credential).
   */
  readonly open?: boolean;
  /**
   * The scopes a caller's token must all hold (`notes:write`); without one of them the route answers
   * 403 insufficient_scope before its handler runs. Absent or empty: any valid token.
   */
  readonly scopes?: readonly string[];
  readonly handle: RouteHandler;
}

/** What the dispatcher matched, left on `ctx.state.route` for middleware and logs. */
export interface MatchedRoute {
  readonly family: PathFamily;
  readonly method: HttpMethod;
  readonly path: string;
  readonly params: PathParams;
}

export function matchedRoute(ctx: Context): MatchedRoute | undefined {
  return (ctx.state as { route?: MatchedRoute }).route;
}
