import { STRING_LENGTHS } from '@convapi/dsl';
import type { ResolvedField } from './types.ts';

/**
 * Every string field with its length bound: the declared maxLength, else the default for an indexed
 * or an unindexed string (STRING_LENGTHS). A string is indexed when it is filterable, unique or
 * sortable, or when `indexedNames` holds its name: the stored columns a row rule compares, and for a
 * version's own shape the stored columns that are indexed (a shaped field is written to the column of
 * its name).
 */
export function boundStrings(
  fields: readonly ResolvedField[],
  indexedNames: ReadonlySet<string> = new Set(),
): ResolvedField[] {
  return fields.map((field) => {
    if (field.kind === 'object') return { ...field, fields: boundStrings(field.fields ?? [], indexedNames) };
    // An enum's values are its bound: they are listed, each checked by lint.
    if (field.kind !== 'string' || field.values !== undefined) return field;
    const indexed = field.filterable || field.unique || field.sortable || indexedNames.has(field.name);
    const declared = field.stringLength?.declared === true;
    const max = declared ? field.stringLength!.max : indexed ? STRING_LENGTHS.indexed : STRING_LENGTHS.default;
    return { ...field, stringLength: { max, declared, indexed } };
  });
}

/** The names of the strings among `fields` that are indexed, to bound a version shape's fields alike. */
export function indexedStringNames(fields: readonly ResolvedField[]): Set<string> {
  return new Set(fields.filter((field) => field.stringLength?.indexed === true).map((field) => field.name));
}
