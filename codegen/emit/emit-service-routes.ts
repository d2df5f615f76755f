import { StructureKind, type StatementStructures } from 'ts-morph';
import type { ResolvedModel, ResolvedService, ResolvedSetting, ResolvedVersion } from '../model/index.ts';
import { routesByDeclaration, type RouteDescriptor } from '../routes/index.ts';
import { fileHeader } from './header.ts';
import { importPath } from './import-path.ts';
import { modelConstOf, modelFileOf } from './emit-models.ts';
import { routesFunctionOf } from './emit-resource-routes.ts';
import { RUNTIME_PACKAGE } from './packages.ts';
import { fileNameOf, pascalOf } from './names.ts';
import { propertiesOf } from './representation-types.ts';
import { routeTableStatement, runtimeImportsOf } from './route-table.ts';
import type { GeneratedFile, SourceFileBuilder } from './source-file.ts';

export const serviceRoutesFileOf = (version: string, name: string) =>
  `generated/services/${version}/${fileNameOf(name)}.ts`;
export const settingRoutesFileOf = (version: string, name: string) =>
  `generated/settings/${version}/${fileNameOf(name)}.ts`;

/** One module per service and per setting per version, each with its route table. */
export function emitServiceRoutes(
  model: ResolvedModel,
  routes: readonly RouteDescriptor[],
  builder: SourceFileBuilder,
): GeneratedFile[] {
  const own = routesByDeclaration(routes);
  return [
    ...model.services.flatMap((service) =>
      service.versions.map((version) =>
        emitService(builder, service, version, own('service', service.name, version.name)),
      ),
    ),
    ...model.settings.flatMap((setting) =>
      setting.versions.map((version) =>
        emitSetting(builder, setting, version, own('setting', setting.name, version.name)),
      ),
    ),
  ];
}

function emitService(
  builder: SourceFileBuilder,
  service: ResolvedService,
  version: ResolvedVersion,
  routes: readonly RouteDescriptor[],
): GeneratedFile {
  const path = serviceRoutesFileOf(version.name, service.name);
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namedImports: ['ApiContext', 'Route'],
      moduleSpecifier: RUNTIME_PACKAGE,
    },
    {
      kind: StructureKind.ImportDeclaration,
      namedImports: runtimeImportsOf('serviceHandlers', routes),
      moduleSpecifier: RUNTIME_PACKAGE,
    },
    {
      kind: StructureKind.ImportDeclaration,
      defaultImport: 'definition',
      moduleSpecifier: importPath(path, service.source),
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: routesFunctionOf(service.name, version.name),
      docs: [`The ${version.name} routes of the ${service.name} service (${service.handler}).`],
      parameters: [{ name: 'context', type: 'ApiContext' }],
      returnType: 'Route[]',
      statements: [
        `const handlers = serviceHandlers(context, definition, '${version.name}');`,
        routeTableStatement(routes, (route) => `handlers[${route.handler.operation}]!`),
      ],
    },
  ];
  return builder.build(path, fileHeader([service.source]), statements);
}

function emitSetting(
  builder: SourceFileBuilder,
  setting: ResolvedSetting,
  version: ResolvedVersion,
  routes: readonly RouteDescriptor[],
): GeneratedFile {
  const path = settingRoutesFileOf(version.name, setting.name);
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namedImports: ['ApiContext', 'Route'],
      moduleSpecifier: RUNTIME_PACKAGE,
    },
    {
      kind: StructureKind.ImportDeclaration,
      namedImports: runtimeImportsOf('settingHandlers', routes),
      moduleSpecifier: RUNTIME_PACKAGE,
    },
    {
      kind: StructureKind.ImportDeclaration,
      namedImports: [modelConstOf(setting.name)],
      moduleSpecifier: importPath(path, modelFileOf(setting.name)),
    },
    {
      kind: StructureKind.Interface,
      isExported: true,
      name: `${pascalOf(setting.name)}${version.name.toUpperCase()}`,
      docs: [`The ${setting.name} setting as ${version.name} represents it.`],
      properties: propertiesOf(version.fields),
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: routesFunctionOf(setting.name, version.name),
      docs: [`The ${version.name} routes of the ${setting.name} setting.`],
      parameters: [{ name: 'context', type: 'ApiContext' }],
      returnType: 'Route[]',
      statements: [
        `const handlers = settingHandlers(context, ${modelConstOf(setting.name)}, '${version.name}');`,
        routeTableStatement(routes, (route) => `handlers.${route.handler.operation}`),
      ],
    },
  ];
  return builder.build(path, fileHeader([setting.source]), statements);
}
