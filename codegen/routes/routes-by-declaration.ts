import type { RouteDescriptor } from './route-descriptor.ts';

/**
 * The routes of one declaration in one version, in their order in `routes`, looked up in a map made
 * once: a filter over every route per declaration is quadratic, and a project of 1,000 collections
 * has 14,000 routes.
 */
export function routesByDeclaration(
  routes: readonly RouteDescriptor[],
): (family: RouteDescriptor['family'], declaration: string, version: string) => readonly RouteDescriptor[] {
  const key = (family: string, declaration: string, version: string) => `${family}\0${declaration}\0${version}`;
  const groups = Map.groupBy(routes, (route) => key(route.family, route.declaration, route.version));
  return (family, declaration, version) => groups.get(key(family, declaration, version)) ?? [];
}
