import { ModuleDeclarationKind, StructureKind } from 'ts-morph';
import type { ResolvedCollection, ResolvedField, ResolvedModel } from '../model/index.ts';
import { GENERATED_TYPES_FILE } from '../typecheck/index.ts';
import { fileHeader } from './header.ts';
import { DSL_PACKAGE } from './packages.ts';
import { typeOfField } from './representation-types.ts';
import type { GeneratedFile, SourceFileBuilder } from './source-file.ts';

/**
 * generated/collection-rows.ts: each collection's stored values by name, merged into the DSL's
 * CollectionRows, so that `data.of('reservations')` in a rule or an own operation is typed by that
 * collection's fields and a name no definition declares does not compile; and the type of each
 * collection's identifier, merged into CollectionIdentifiers, so that a reference field in a rule's
 * `next` or an effect's row is typed as its target's identifier is. Plain types spelled out from the
 * model, not taken from the definitions: a definition's rules may name its own collection, and a type
 * read back from the definition would then depend on itself.
 */
export function emitCollectionRows(model: ResolvedModel, builder: SourceFileBuilder): GeneratedFile {
  const byName = new Map(model.collections.map((collection) => [collection.name, collection]));
  return builder.build(GENERATED_TYPES_FILE, fileHeader(['every file in definitions/']), [
    {
      kind: StructureKind.Module,
      name: `'${DSL_PACKAGE}'`,
      declarationKind: ModuleDeclarationKind.Module,
      hasDeclareKeyword: true,
      statements: [
        {
          kind: StructureKind.Interface,
          name: 'CollectionRows',
          docs: ['The stored values of each collection, by its name (what `data.of(name)` reads and writes).'],
          properties: [...model.collections]
            .sort((a, b) => a.name.localeCompare(b.name))
            .map((collection) => ({
              name: quotedIfNeeded(collection.name),
              type: storedRowType(collection, byName),
            })),
        },
        {
          kind: StructureKind.Interface,
          name: 'CollectionIdentifiers',
          docs: ["The type of each collection's identifier, by its name (what a reference to it holds)."],
          properties: [...model.collections]
            .sort((a, b) => a.name.localeCompare(b.name))
            .map((collection) => ({ name: quotedIfNeeded(collection.name), type: identifierType(collection) })),
        },
      ],
    },
    'export {};',
  ]);
}

/** `{ guest_name: string; room: string; pet: number }`: a reference holds its target's identifier. */
function storedRowType(collection: ResolvedCollection, byName: ReadonlyMap<string, ResolvedCollection>): string {
  const valueOf = (field: ResolvedField): string => {
    if (field.references === undefined) return typeOfField(field);
    const target = byName.get(field.references);
    const id = target === undefined ? 'string' : identifierType(target);
    return field.kind === 'array' ? `Array<${id}>` : id;
  };
  const members = collection.fields.map((field) => `${quotedIfNeeded(field.name)}: ${valueOf(field)}`);
  return `{ ${members.join('; ')} }`;
}

/** The stored type of a collection's identifier: an integer identifier is a number, any other a string. */
const identifierType = (collection: ResolvedCollection): string =>
  collection.identifier.type === 'integer' ? 'number' : 'string';

const quotedIfNeeded = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);
