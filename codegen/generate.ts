import { emitIndexes, emitMain, emitModels, emitResourceRoutes, emitServiceRoutes, SourceFileBuilder, type GeneratedFile } from './emit/index.ts';
import { loadDefinitions, type LoadedDefinition } from './load/load-definitions.ts';
import { emitOpenApi, openApiDocuments } from './emit/emit-openapi.ts';
import { emitClient } from './emit/emit-client.ts';
import { emitVersionDiffs } from './emit/emit-version-diffs.ts';
import { resolveModel, type ResolvedModel } from './model/index.ts';
import { flattenRoutes, type RouteDescriptor } from './routes/index.ts';

export interface Generation {
  readonly model: ResolvedModel;
  readonly routes: readonly RouteDescriptor[];
  /** Every file of generated/, sorted by path. */
  readonly files: readonly GeneratedFile[];
}

/**
 * The pipeline: load definitions → resolve the model → flatten routes → emit. Lint runs before this
 * in the CLI, on the same loaded definitions; emitters only read the resolved model and the route list.
 */
export async function generate(root: string, loaded?: readonly LoadedDefinition[]): Promise<Generation> {
  const definitions = loaded ?? (await loadDefinitions(root));
  const model = resolveModel(definitions);
  const routes = flattenRoutes(model);
  const builder = new SourceFileBuilder();
  const documents = openApiDocuments(model, routes, definitions);
  const files = [
    ...emitModels(model, builder),
    ...emitResourceRoutes(model, routes, builder),
    ...emitServiceRoutes(model, routes, builder),
    ...emitIndexes(model, builder),
    ...emitOpenApi(documents),
    // The typed client comes with the published documents: only when the project declares the openapi service.
    ...(model.services.some((service) => service.handler === 'openapi') ? await emitClient(documents, builder) : []),
    emitVersionDiffs(model),
    emitMain(builder),
  ].sort((a, b) => a.path.localeCompare(b.path));
  return { model, routes, files };
}
