export { SourceFileBuilder, type GeneratedFile } from './source-file.ts';
export { emitModels } from './emit-models.ts';
export { emitResourceRoutes } from './emit-resource-routes.ts';
export { emitServiceRoutes } from './emit-service-routes.ts';
export { emitIndexes } from './emit-indexes.ts';
export { emitMain } from './emit-main.ts';
export { fileHeader } from './header.ts';
