import { StructureKind, type StatementStructures } from 'ts-morph';
import {
  defaultIdentifierName,
  type ResolvedAggregate,
  type ResolvedCollection,
  type ResolvedModel,
  type ResolvedSetting,
} from '../model/index.ts';
import { parentPaths, type ParentPath } from '../routes/index.ts';
import { fileHeader } from './header.ts';
import { importPath } from './import-path.ts';
import { RUNTIME_PACKAGE } from './packages.ts';
import { code, constStatement, printLiteral } from './literal.ts';
import { DEFINITION, fieldLiteral, rulesLiteral, versionLiteral } from './model-literals.ts';
import { aggregateTable, collectionTable } from '../model/tables.ts';
import { camelOf, fileNameOf } from './names.ts';
import type { GeneratedFile, SourceFileBuilder } from './source-file.ts';

export const modelFileOf = (name: string) => `generated/models/${fileNameOf(name)}.ts`;
export const modelConstOf = (name: string) => `${camelOf(name)}Model`;

/** One module per collection, aggregate and setting: the resolved model the runtime serves. */
export function emitModels(model: ResolvedModel, builder: SourceFileBuilder): GeneratedFile[] {
  const parents = new Map(model.collections.map((collection) => [collection.name, collection]));
  const parentPathOf = parentPaths(model);
  return [
    ...model.collections.map((collection) =>
      emitModel(builder, collection, 'CollectionModel', collectionLiteral(collection, parentPathOf)),
    ),
    ...model.aggregates.map((aggregate) =>
      emitModel(builder, aggregate, 'AggregateModel', aggregateLiteral(aggregate, parents.get(aggregate.parent))),
    ),
    ...model.settings.map((setting) => emitModel(builder, setting, 'SettingModel', settingLiteral(setting))),
  ];
}

function emitModel(
  builder: SourceFileBuilder,
  declaration: ResolvedCollection | ResolvedAggregate | ResolvedSetting,
  type: string,
  literal: Record<string, unknown>,
): GeneratedFile {
  const path = modelFileOf(declaration.name);
  const statements: (string | StatementStructures)[] = [
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namedImports: ['FieldModel', type],
      moduleSpecifier: RUNTIME_PACKAGE,
    },
    {
      kind: StructureKind.ImportDeclaration,
      defaultImport: DEFINITION,
      moduleSpecifier: importPath(path, declaration.source),
    },
    constStatement({
      docs: 'The stored fields, shared by every version that does not declare its own shape.',
      name: 'storedFields',
      type: 'readonly FieldModel[]',
      initializer: printLiteral(declaration.fields.map(fieldLiteral)),
    }),
    constStatement({
      docs: `${declaration.name}, resolved from ${declaration.source} with every default applied.`,
      exported: true,
      name: modelConstOf(declaration.name),
      type,
      initializer: printLiteral(literal),
    }),
  ];
  return builder.build(path, fileHeader([declaration.source]), statements);
}

const storedFields = code('storedFields');

function versionsLiteral(declaration: { versions: ResolvedCollection['versions'] }): Record<string, unknown> {
  return Object.fromEntries(
    declaration.versions.map((version) => [version.name, versionLiteral(version, storedFields)]),
  );
}

function collectionLiteral(
  collection: ResolvedCollection,
  parentPathOf: (collection: ResolvedCollection, version: string) => ParentPath | undefined,
): Record<string, unknown> {
  return {
    kind: 'collection',
    name: collection.name,
    singular: collection.singular,
    identifier: collection.identifier,
    createOnPut: collection.createOnPut,
    asynchronous: collection.asynchronous,
    fields: storedFields,
    versions: versionsLiteral(collection),
    operations: collection.operations,
    paging: collection.paging,
    table: collectionTable(collection),
    ...rulesLiteral(collection),
    rows: collection.rows === undefined ? undefined : code(`${DEFINITION}.rows`),
    // Only a parent the routes serve below (routes/served-under.ts): lint reports the others.
    parent: collection.versions.some((version) => parentPathOf(collection, version.name) !== undefined)
      ? collection.parent?.field
      : undefined,
    description: collection.description,
  };
}

function aggregateLiteral(
  aggregate: ResolvedAggregate,
  parent: ResolvedCollection | undefined,
): Record<string, unknown> {
  return {
    kind: 'aggregate',
    name: aggregate.name,
    parent: aggregate.parent,
    fields: storedFields,
    versions: versionsLiteral(aggregate),
    table: aggregateTable(aggregate, parent),
    ...rulesLiteral(aggregate),
    description: aggregate.description,
  };
}

function settingLiteral(setting: ResolvedSetting): Record<string, unknown> {
  return {
    kind: 'setting',
    name: setting.name,
    fields: storedFields,
    versions: versionsLiteral(setting),
    rules: setting.ruledOperations.length > 0 ? code(`${DEFINITION}.rules`) : undefined,
    description: setting.description,
  };
}
