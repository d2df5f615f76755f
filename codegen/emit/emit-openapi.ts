import type { LoadedDefinition } from '../load/load-definitions.ts';
import type { ResolvedModel } from '../model/index.ts';
import { buildOpenApiDocument } from '../openapi/index.ts';
import type { RouteDescriptor } from '../routes/index.ts';
import { prettyJsonBytes } from './pretty-json.ts';
import type { GeneratedFile } from './source-file.ts';
import type { VersionDocument } from './emit-client.ts';

export const openApiFileOf = (version: string) => `generated/openapi/${version}.json`;

/**
 * generated/openapi/{version}.json: one OpenAPI 3.1 document per version, served at the openapi
 * service and readable by any OpenAPI tool. JSON holds no comments: the stamp is in info.description.
 */
export function emitOpenApi(documents: readonly VersionDocument[]): GeneratedFile[] {
  return documents.map(({ version, document }) => {
    const bytes = prettyJsonBytes(document);
    return {
      path: openApiFileOf(version),
      bytes,
      // Made whole only when read: the generator itself compares, hashes and writes the pieces.
      get text() {
        return Buffer.concat(bytes).toString('utf8');
      },
    };
  });
}

/** The document of every version, built once: the OpenAPI files and the typed client are both made from them. */
export function openApiDocuments(
  model: ResolvedModel,
  routes: readonly RouteDescriptor[],
  definitions: readonly LoadedDefinition[],
): VersionDocument[] {
  const bySource = new Map(definitions.map((definition) => [definition.file, definition.declaration]));
  return model.versions.map((version) => ({
    version,
    document: buildOpenApiDocument(model, routes, version, (source) => bySource.get(source)),
  }));
}
