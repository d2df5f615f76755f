import { StructureKind, type StatementStructures } from 'ts-morph';
import {
  singularOf,
  type ResolvedAggregate,
  type ResolvedCollection,
  type ResolvedModel,
  type ResolvedVersion,
} from '../model/index.ts';
import { routesByDeclaration, type RouteDescriptor } from '../routes/index.ts';
import { fileHeader } from './header.ts';
import { importPath } from './import-path.ts';
import { RUNTIME_PACKAGE } from './packages.ts';
import { modelConstOf, modelFileOf } from './emit-models.ts';
import { camelOf, fileNameOf, pascalOf } from './names.ts';
import { propertiesOf } from './representation-types.ts';
import { routeTableStatement, runtimeImportsOf } from './route-table.ts';
import type { GeneratedFile, SourceFileBuilder } from './source-file.ts';

export const resourceRoutesFileOf = (version: string, name: string) =>
  `generated/resources/${version}/${fileNameOf(name)}.ts`;
export const routesFunctionOf = (name: string, version: string) => `${camelOf(name)}${version.toUpperCase()}Routes`;

/** One module per collection or aggregate per version: its representation type and its route table. */
export function emitResourceRoutes(
  model: ResolvedModel,
  routes: readonly RouteDescriptor[],
  builder: SourceFileBuilder,
): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  const identifiers = new Map(model.collections.map((collection) => [collection.name, collection.identifier]));
  const routesOf = routesByDeclaration(routes);
  for (const declaration of [...model.collections, ...model.aggregates]) {
    for (const version of declaration.versions) {
      files.push(
        emitOne(builder, declaration, version, routesOf('resource', declaration.name, version.name), identifiers),
      );
    }
  }
  return files;
}

function emitOne(
  builder: SourceFileBuilder,
  declaration: ResolvedCollection | ResolvedAggregate,
  version: ResolvedVersion,
  routes: readonly RouteDescriptor[],
  identifiers: ReadonlyMap<string, { name: string; type: 'integer' | 'string' }>,
): GeneratedFile {
  const path = resourceRoutesFileOf(version.name, declaration.name);
  const isCollection = declaration.kind === 'collection';
  const ownOperations = isCollection && declaration.ownOperations.length > 0;
  const factory = isCollection ? 'collectionHandlers' : 'aggregateHandlers';
  const typeName = `${pascalOf(isCollection ? declaration.singular : declaration.name)}${version.name.toUpperCase()}`;
  const identifier = isCollection ? declaration.identifier : identifiers.get(declaration.parent);
  const properties = [
    ...(isCollection && identifier !== undefined
      ? [{ name: identifier.name, type: identifier.type === 'integer' ? 'number' : 'string', hasQuestionToken: false }]
      : []),
    ...propertiesOf(version.fields),
    ...(isCollection
      ? [{ name: 'created_at', type: 'string', hasQuestionToken: false, docs: ['ISO 8601 UTC, set by the server.'] }]
      : []),
  ];
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namedImports: ['ApiContext', 'Route'],
      moduleSpecifier: RUNTIME_PACKAGE,
    },
    {
      kind: StructureKind.ImportDeclaration,
      namedImports: [...runtimeImportsOf(factory, routes), ...(ownOperations ? ['resourceOperationHandlers'] : [])],
      moduleSpecifier: RUNTIME_PACKAGE,
    },
    {
      kind: StructureKind.ImportDeclaration,
      namedImports: [modelConstOf(declaration.name)],
      moduleSpecifier: importPath(path, modelFileOf(declaration.name)),
    },
    ...(ownOperations
      ? [
          {
            kind: StructureKind.ImportDeclaration as const,
            defaultImport: 'definition',
            moduleSpecifier: importPath(path, declaration.source),
          },
        ]
      : []),
    {
      kind: StructureKind.Interface,
      isExported: true,
      name: typeName,
      docs: [
        `${isCollection ? `One ${declaration.singular}` : `The ${declaration.name} of one ${singularOf(declaration.parent)}`} as ${version.name} represents it. Null fields are left out.`,
      ],
      properties,
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: routesFunctionOf(declaration.name, version.name),
      docs: [`The ${version.name} routes of ${declaration.name}.`],
      parameters: [{ name: 'context', type: 'ApiContext' }],
      returnType: 'Route[]',
      statements: [
        `const handlers = ${factory}(context, ${modelConstOf(declaration.name)}, '${version.name}', context.handlerOptions);`,
        ...(ownOperations
          ? [
              `const own = resourceOperationHandlers(context, definition, ${modelConstOf(declaration.name)}, '${version.name}');`,
            ]
          : []),
        routeTableStatement(routes, (route) =>
          route.handler.kind === 'own'
            ? `own[${route.handler.operation}]!`
            : route.handler.kind === 'sub-collection'
              ? `handlers.underParent!.${route.handler.operation}`
              : `handlers.${route.handler.operation}`,
        ),
      ],
    },
  ];
  return builder.build(path, fileHeader([declaration.source]), statements);
}
