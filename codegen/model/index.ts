export type * from './types.ts';
export { resolveModel, compareVersions } from './resolve.ts';
export { DEFAULTS, defaultIdentifierName, singularOf, pluralOf, isPlural } from './defaults.ts';
