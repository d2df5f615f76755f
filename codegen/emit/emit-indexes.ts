import { StructureKind, type StatementStructures } from 'ts-morph';
import type { ResolvedModel } from '../model/index.ts';
import { fileHeader } from './header.ts';
import { constStatement, printLiteral } from './literal.ts';
import { openApiFileOf } from './emit-openapi.ts';
import { importPath } from './import-path.ts';
import { modelConstOf, modelFileOf } from './emit-models.ts';
import { resourceRoutesFileOf, routesFunctionOf } from './emit-resource-routes.ts';
import { RUNTIME_PACKAGE } from './packages.ts';
import { serviceRoutesFileOf, settingRoutesFileOf } from './emit-service-routes.ts';
import type { GeneratedFile, SourceFileBuilder } from './source-file.ts';
import { MIGRATIONS_FOLDER } from '../migrations/files.ts';

interface FamilyModule {
  readonly file: string;
  readonly fn: string;
}

/**
 * A router index per family (generated/resources|services|settings/index.ts) listing every route
 * module, and generated/api.ts, the one object the runtime serves.
 */
export function emitIndexes(
  model: ResolvedModel,
  builder: SourceFileBuilder,
  migrations?: readonly string[],
): GeneratedFile[] {
  const versionsOf = (declaration: { name: string; versions: readonly { name: string }[] }) =>
    declaration.versions.map((version) => ({ name: declaration.name, version: version.name }));
  const resources = [...model.collections, ...model.aggregates]
    .flatMap(versionsOf)
    .map(({ name, version }) => ({ file: resourceRoutesFileOf(version, name), fn: routesFunctionOf(name, version) }));
  const services = model.services
    .flatMap(versionsOf)
    .map(({ name, version }) => ({ file: serviceRoutesFileOf(version, name), fn: routesFunctionOf(name, version) }));
  const settings = model.settings
    .flatMap(versionsOf)
    .map(({ name, version }) => ({ file: settingRoutesFileOf(version, name), fn: routesFunctionOf(name, version) }));
  const sources = (list: readonly { source: string }[]) => [...new Set(list.map((item) => item.source))].sort();
  return [
    familyIndex(
      builder,
      'generated/resources/index.ts',
      'resourceRoutes',
      'resource',
      resources,
      sources([...model.collections, ...model.aggregates]),
    ),
    familyIndex(builder, 'generated/services/index.ts', 'serviceRoutes', 'service', services, sources(model.services)),
    familyIndex(builder, 'generated/settings/index.ts', 'settingRoutes', 'setting', settings, sources(model.settings)),
    apiModule(builder, model, migrations),
  ];
}

function familyIndex(
  builder: SourceFileBuilder,
  path: string,
  name: string,
  family: string,
  modules: readonly FamilyModule[],
  sources: readonly string[],
): GeneratedFile {
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namedImports: ['ApiContext', 'Route'],
      moduleSpecifier: RUNTIME_PACKAGE,
    },
    ...modules.map((module): StatementStructures => ({
      kind: StructureKind.ImportDeclaration,
      namedImports: [module.fn],
      moduleSpecifier: importPath(path, module.file),
    })),
    {
      kind: StructureKind.Function,
      isExported: true,
      name,
      docs: [`Every route of the ${family} family, for its own router.`],
      parameters: [{ name: modules.length === 0 ? '_context' : 'context', type: 'ApiContext' }],
      returnType: 'Route[]',
      statements: [`return [${modules.map((module) => `...${module.fn}(context)`).join(', ')}];`],
    },
  ];
  return builder.build(path, fileHeader(sources), statements);
}

/** `migrations/0002_add-phone.json` is imported as `migration0002`. */
const migrationConstOf = (id: string) => `migration${id.slice(0, 4)}`;

/**
 * generated/api.ts. `migrations`: the ids of migrations/*.json, in order, when the project keeps
 * migrations (each file imported as JSON; the runtime checks it when the server starts).
 */
function apiModule(
  builder: SourceFileBuilder,
  model: ResolvedModel,
  migrations: readonly string[] | undefined,
): GeneratedFile {
  const path = 'generated/api.ts';
  const models = [...model.collections, ...model.aggregates, ...model.settings];
  const jobQueues = model.services.filter((service) => service.handler === 'job-queue');
  const statements: (string | StatementStructures)[] = [
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namedImports: ['ApiDefinition'],
      moduleSpecifier: RUNTIME_PACKAGE,
    },
    ...models.map((declaration): StatementStructures => ({
      kind: StructureKind.ImportDeclaration,
      namedImports: [modelConstOf(declaration.name)],
      moduleSpecifier: importPath(path, modelFileOf(declaration.name)),
    })),
    ...jobQueues.map((service): StatementStructures => ({
      kind: StructureKind.ImportDeclaration,
      defaultImport: `${modelConstOf(service.name).replace(/Model$/, '')}Definition`,
      moduleSpecifier: importPath(path, service.source),
    })),
    // A raw statement: the formatter would spread the import attributes over three lines.
    ...(migrations ?? []).map(
      (id) =>
        `import ${migrationConstOf(id)} from '${importPath(path, `${MIGRATIONS_FOLDER}/${id}.json`)}' with { type: 'json' };`,
    ),
    {
      kind: StructureKind.ImportDeclaration,
      namedImports: ['resourceRoutes'],
      moduleSpecifier: './resources/index.ts',
    },
    { kind: StructureKind.ImportDeclaration, namedImports: ['serviceRoutes'], moduleSpecifier: './services/index.ts' },
    { kind: StructureKind.ImportDeclaration, namedImports: ['settingRoutes'], moduleSpecifier: './settings/index.ts' },
    constStatement({
      docs: 'The whole API declared in definitions/: its models, its job queues and the routes of its three families.',
      exported: true,
      name: 'api',
      type: 'ApiDefinition',
      initializer: [
        '{',
        `  versions: [${model.versions.map((version) => `'${version}'`).join(', ')}],`,
        '  catalog: {',
        `    collections: { ${model.collections.map((c) => `${printLiteral(c.name)}: ${modelConstOf(c.name)}`).join(', ')} },`,
        `    aggregates: [${model.aggregates.map((a) => modelConstOf(a.name)).join(', ')}],`,
        '  },',
        `  settings: [${model.settings.map((s) => modelConstOf(s.name)).join(', ')}],`,
        `  jobQueues: [${jobQueues.map((service) => `${modelConstOf(service.name).replace(/Model$/, '')}Definition`).join(', ')}],`,
        // Loaded with the first request for them: a server whose documents nobody reads never holds them.
        `  openApi: { ${model.versions.map((version) => `${version}: () => import('${importPath(path, openApiFileOf(version))}', { with: { type: 'json' } })`).join(', ')} },`,
        ...model.services
          .filter((service) => service.handler === 'openapi')
          .slice(0, 1)
          .map((service) => `  openApiService: ${printLiteral(service.name)},`),
        '  routes: (context) => [...resourceRoutes(context), ...serviceRoutes(context), ...settingRoutes(context)],',
        ...(migrations === undefined
          ? []
          : [
              `  migrations: [${migrations.map((id) => `{ id: ${printLiteral(id)}, plan: ${migrationConstOf(id)} }`).join(', ')}],`,
            ]),
        '}',
      ].join('\n'),
    }),
  ];
  return builder.build(path, fileHeader(['every file in definitions/']), statements);
}
