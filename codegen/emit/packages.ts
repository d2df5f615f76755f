/**
 * The package generated code imports the runtime from, by name: the same output then works in this
 * repository (a workspace link to runtime/) and in a user's project (the installed package).
 */
export const RUNTIME_PACKAGE = '@convapi/runtime';

/** The DSL package, by name: generated types merge into its declarations (generated/collection-rows.ts). */
export const DSL_PACKAGE = '@convapi/dsl';
