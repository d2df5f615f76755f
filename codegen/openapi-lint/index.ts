export { lintOpenApiFile, lintOpenApiText } from './lint-openapi.ts';
export { OPENAPI_RULES } from './rule-info.ts';
