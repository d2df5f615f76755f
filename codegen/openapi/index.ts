export { buildOpenApiDocument } from './build-document.ts';
export { jsonSchemaOf, valueAt, type JsonSchema } from './schema-of.ts';
export { representationName } from './representation-schemas.ts';
