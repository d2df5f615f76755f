export type * from './types.ts';
export { resolveModel, compareVersions } from './resolve.ts';
export { DEFAULTS, defaultIdentifierName, singularOf, isPlural } from './defaults.ts';
