import type { LoadedDefinition } from '../load/load-definitions.ts';
import type { ResolvedModel } from '../model/index.ts';
import { buildOpenApiDocument } from '../openapi/index.ts';
import type { RouteDescriptor } from '../routes/index.ts';
import type { GeneratedFile } from './source-file.ts';

export const openApiFileOf = (version: string) => `generated/openapi/${version}.json`;

/**
 * generated/openapi/{version}.json: one OpenAPI 3.1 document per version, served at the openapi
 * service and readable by any OpenAPI tool. JSON holds no comments: the stamp is in info.description.
 */
export function emitOpenApi(model: ResolvedModel, routes: readonly RouteDescriptor[], definitions: readonly LoadedDefinition[]): GeneratedFile[] {
  const bySource = new Map(definitions.map((definition) => [definition.file, definition.declaration]));
  return model.versions.map((version) => ({
    path: openApiFileOf(version),
    text: `${JSON.stringify(buildOpenApiDocument(model, routes, version, (source) => bySource.get(source)), null, 2)}\n`,
  }));
}
