import {
  emitIndexes,
  emitMain,
  emitModels,
  emitResourceRoutes,
  emitServiceRoutes,
  SourceFileBuilder,
  type GeneratedFile,
} from './emit/index.ts';
import { loadDefinitions, type LoadedDefinition } from './load/load-definitions.ts';
import { emitOpenApi, openApiDocuments } from './emit/emit-openapi.ts';
import { emitClient } from './emit/emit-client.ts';
import { emitVersionDiffs } from './emit/emit-version-diffs.ts';
import { emitCollectionRows } from './emit/emit-collection-rows.ts';
import { resolveModel, type ResolvedModel } from './model/index.ts';
import { flattenRoutes, type RouteDescriptor } from './routes/index.ts';
import { keepsMigrations, migrationIds } from './migrations/files.ts';

export interface Generation {
  readonly model: ResolvedModel;
  readonly routes: readonly RouteDescriptor[];
  /** Every file of generated/, sorted by path. */
  readonly files: readonly GeneratedFile[];
}

/**
 * The pipeline: load definitions → resolve the model → flatten routes → emit. Lint runs before this
 * in the CLI, on the same loaded definitions; emitters only read the resolved model and the route list.
 * `onFiles`, when given, receives the files in stages as they are made (the modules, then the OpenAPI
 * documents, then the typed client), with a full turn of the event loop after each, I/O polled, so
 * the caller can write the first while the rest is built.
 */
export async function generate(
  root: string,
  loaded?: readonly LoadedDefinition[],
  onFiles?: (files: readonly GeneratedFile[]) => void,
): Promise<Generation> {
  const definitions = loaded ?? (await loadDefinitions(root));
  const model = resolveModel(definitions);
  const routes = flattenRoutes(model);
  const builder = new SourceFileBuilder();
  const stage = async (files: GeneratedFile[]) => {
    if (onFiles === undefined) return files;
    onFiles(files);
    // Two immediates, not one: the first runs in this turn's check phase, before any I/O is polled.
    // The turn after polls it, and what finished meanwhile (the type check, which decides whether
    // anything may be written) is seen now rather than once everything is built.
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    return files;
  };
  const modules = await stage([
    ...emitModels(model, builder),
    ...emitResourceRoutes(model, routes, builder),
    ...emitServiceRoutes(model, routes, builder),
    ...emitIndexes(model, builder, keepsMigrations(root) ? migrationIds(root) : undefined),
    emitVersionDiffs(model),
    emitMain(builder),
    emitCollectionRows(model, builder),
  ]);
  const documents = openApiDocuments(model, routes, definitions);
  const openApi = await stage(emitOpenApi(documents));
  // The typed client comes with the published documents: only when the project declares the openapi service.
  const client = await stage(
    model.services.some((service) => service.handler === 'openapi') ? await emitClient(documents, builder) : [],
  );
  const files = [...modules, ...openApi, ...client].sort((a, b) => a.path.localeCompare(b.path));
  return { model, routes, files };
}
