export type { HttpMethod, MatchedRoute, PathFamily, PathParams, Route, RouteHandler } from './route.ts';
export { matchedRoute } from './route.ts';
export { RouteTree } from './route-tree.ts';
export { dispatch, dispatchOpen } from './dispatch.ts';
export { familyRouters, familyOfPath, type FamilyRoutersOptions } from './families.ts';
export { checks } from './checks.ts';
export { movedPermanently } from './moved-permanently.ts';
export { refusingQuery } from './no-query.ts';
