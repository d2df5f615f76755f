export type * from './types.ts';
export { resolveModel, compareVersions } from './resolve.ts';
export { DEFAULTS, singularOf, isPlural } from './defaults.ts';
