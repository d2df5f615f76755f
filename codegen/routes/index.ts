export type { RouteDescriptor, RouteFamily, RouteMethod } from './route-descriptor.ts';
export { flattenRoutes } from './flatten.ts';
export { routesByDeclaration } from './routes-by-declaration.ts';
export { parentPaths, type ParentPath } from './served-under.ts';
