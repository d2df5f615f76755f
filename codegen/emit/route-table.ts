import type { RouteDescriptor } from '../routes/index.ts';
import { printLiteral } from './literal.ts';

/** A route some handler of the declaration serves (not a former path). */
export type ServedRoute = RouteDescriptor & {
  readonly handler: Exclude<RouteDescriptor['handler'], { kind: 'moved' }>;
};

/**
 * `return [ { method, path, family, handle }, ... ];` for a list of routes. A former path's handler
 * is the runtime's movedPermanently(); the others come from `handlerOf`.
 */
export function routeTableStatement(
  routes: readonly RouteDescriptor[],
  handlerOf: (route: ServedRoute) => string,
): string {
  const rows = routes.map((route) => {
    const handler =
      route.handler.kind === 'moved'
        ? `movedPermanently(context.baseUrl, '${route.handler.from}', '${route.handler.to}')`
        : handlerOf(route as ServedRoute);
    const scopes =
      route.scopes === undefined ? '' : `scopes: [${route.scopes.map((scope) => printLiteral(scope)).join(', ')}], `;
    return `  { method: '${route.method}', path: '${route.path}', family: '${route.family}', ${route.open === true ? 'open: true, ' : ''}${scopes}handle: ${handler} },`;
  });
  return `return [\n${rows.join('\n')}\n];`;
}

/** The runtime names a route module imports: its handler factory, and movedPermanently when it has former paths. */
export function runtimeImportsOf(factory: string, routes: readonly RouteDescriptor[]): string[] {
  return routes.some((route) => route.handler.kind === 'moved') ? [factory, 'movedPermanently'] : [factory];
}
