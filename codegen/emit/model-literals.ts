import type { ResolvedField, ResolvedRules, ResolvedVersion } from '../model/index.ts';
import { accessOf } from './names.ts';
import { code, type Code } from './literal.ts';

/** The definition's default export is imported under this name in every model module. */
export const DEFINITION = 'definition';

/** A resolved field as the runtime's FieldModel literal; its schema comes from the definition. */
export function fieldLiteral(field: ResolvedField): Record<string, unknown> {
  return {
    name: field.name,
    kind: field.kind,
    required: field.required,
    unique: field.unique,
    filterable: field.filterable,
    sortable: field.sortable ? true : undefined,
    searchable: field.searchable,
    readOnly: field.readOnly ? true : undefined,
    schema: code(`${accessOf(DEFINITION, field.access)}.schema`),
    references: field.references,
    onDelete: field.onDelete,
    items: field.items === undefined ? undefined : fieldLiteral(field.items),
    uniqueItems: field.uniqueItems,
    fields: field.fields?.map(fieldLiteral),
    values: field.values,
    description: field.description,
    default: field.default,
    maxLength: field.stringLength?.max,
  };
}

/** A version literal; unshaped versions share the stored fields constant `storedFields`. */
export function versionLiteral(version: ResolvedVersion, storedFields: Code): Record<string, unknown> {
  const access = accessOf(DEFINITION, version.access);
  return {
    name: version.name,
    fields: version.shaped ? version.fields.map(fieldLiteral) : storedFields,
    read: version.shaped ? code(`${access}.shape.read`) : undefined,
    write: version.shaped ? code(`${access}.shape.write`) : undefined,
    deprecated: version.deprecated,
  };
}

/** The model's rules and computed fields, taken from the definition where it declares them. */
export function rulesLiteral(declaration: ResolvedRules): Record<string, unknown> {
  return {
    rules: declaration.ruledOperations.length > 0 ? code(`${DEFINITION}.rules`) : undefined,
    compute: declaration.computed.length > 0 ? code(`${DEFINITION}.compute`) : undefined,
    effects: declaration.effectOperations.length > 0 ? code(`${DEFINITION}.effects`) : undefined,
  };
}
