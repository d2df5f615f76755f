import compose from 'koa-compose';
import type { Context, Middleware, Next } from 'koa';
import type { PathFamily, Route } from './route.ts';
import { dispatch, dispatchOpen } from './dispatch.ts';

export interface FamilyRoutersOptions {
  readonly routes: readonly Route[];
  /** Middleware run for one family only, before its routes (call limits, stricter rules...). */
  readonly before?: Partial<Record<PathFamily, readonly Middleware[]>>;
}

/** The family a request path belongs to, from its first segment (conventions: path families). */
export function familyOfPath(path: string): PathFamily {
  if (path.startsWith('/services/') || path === '/services') return 'service';
  if (path.startsWith('/settings/') || path === '/settings') return 'setting';
  return 'resource';
}

/**
 * One router per path family (resource, service, setting), each with its own middleware in front,
 * chosen by the first path segment so that family rules never run for another family's paths.
 * Open routes (`open: true`) are served before that middleware: no call limit, no token.
 *
 * @example
 * app.use(familyRouters({ routes, before: { setting: [rateLimit({ family: 'setting', points: 10, durationSeconds: 60 })] } }));
 */
export function familyRouters({ routes, before = {} }: FamilyRoutersOptions): Middleware {
  const families: PathFamily[] = ['resource', 'service', 'setting'];
  const routers = new Map<PathFamily, Middleware>(
    families.map((family) => {
      const own = routes.filter((route) => route.family === family);
      const guarded = chain([...(before[family] ?? []), dispatch(own)]);
      const open = own.filter((route) => route.open === true);
      return [family, open.length === 0 ? guarded : dispatchOpen(open, guarded)];
    }),
  );
  return function familyRoutersMiddleware(ctx: Context, next: Next) {
    return routers.get(familyOfPath(ctx.path))!(ctx, next);
  };
}

/** koa-compose, except that two middlewares (one before the routes, the usual case) are simply nested. */
function chain(middlewares: readonly Middleware[]): Middleware {
  if (middlewares.length !== 2) return compose([...middlewares]);
  const [outer, inner] = middlewares as [Middleware, Middleware];
  return (ctx: Context, next: Next) => outer(ctx, () => inner(ctx, next));
}
