import type { RouteDescriptor } from '../routes/index.ts';

/** `return [ { method, path, family, handle }, ... ];` for a list of routes. */
export function routeTableStatement(routes: readonly RouteDescriptor[], handlerOf: (route: RouteDescriptor) => string): string {
  const rows = routes.map(
    (route) => `  { method: '${route.method}', path: '${route.path}', family: '${route.family}', ${route.open === true ? 'open: true, ' : ''}handle: ${handlerOf(route)} },`,
  );
  return `return [\n${rows.join('\n')}\n];`;
}
