import type { Route } from '../routing/index.ts';
import { callerOf } from './caller.ts';
import { insufficientScope } from './scopes.ts';

/**
 * The route itself when it needs no scope (its handler is called as before, at no cost), else the
 * route with a handler that first checks the caller holds every scope it needs: 403
 * insufficient_scope naming them otherwise.
 */
export function scopeChecked(route: Route): Route {
  const needed = route.scopes;
  if (needed === undefined || needed.length === 0) return route;
  const handle = route.handle;
  return {
    ...route,
    handle: (ctx, params) => {
      const granted = callerOf(ctx)?.scopes ?? [];
      const missing = needed.filter((scope) => !granted.includes(scope));
      if (missing.length > 0) throw insufficientScope(needed, missing);
      return handle(ctx, params);
    },
  };
}
