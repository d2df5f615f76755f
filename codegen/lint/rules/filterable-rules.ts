import type { ResolvedField } from '../../model/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';
import { everyField } from './default-rules.ts';

/** An array's item, and the items of arrays nested in objects: where `filterable` filters nothing. */
const itemsOf = (fields: readonly ResolvedField[]): ResolvedField[] =>
  fields.flatMap((field) => (field.items === undefined ? [] : [field.items]));

/**
 * filterable-field: `filterable` is for the fields a list's query string can name: the top-level
 * fields of a collection (an array by one of its items, `?allergies.contains=`). On a nested object,
 * a field inside one, an array's item, or an aggregate's or a setting's field (never listed) it would
 * promise a filter and an index nobody gets.
 */
export const filterableField: Rule = ({ model }) =>
  allDeclarations(model).flatMap((declaration): Finding[] => {
    const fields = everyField(declaration);
    const topLevel = new Set(declaration.kind === 'collection' ? declaration.fields : []);
    for (const version of declaration.versions)
      if (version.shaped) for (const field of version.fields) topLevel.add(field);
    return [...fields, ...itemsOf(fields)]
      .filter((field) => field.filterable && (!topLevel.has(field) || field.kind === 'object'))
      .map((field) => {
        const item = field.access.at(-1) === 'items';
        const why =
          field.kind === 'object'
            ? 'a nested object cannot be compared with a query parameter'
            : item
              ? `an array's item is not a field of its own (declare filterable on the array: ?${field.access.at(-2)}.contains=)`
              : declaration.kind === 'collection'
                ? 'a field inside a nested object is not a filter of the list'
                : `${declaration.kind} "${declaration.name}" is never listed`;
        return {
          rule: 'filterable-field',
          source: declaration.source,
          at: [...field.access, 'filterable'],
          message: `${item ? `the item of "${field.access.at(-2)}"` : `field "${field.name}"`} is declared filterable, but ${why}: remove filterable, or filter by a top-level field of the collection`,
        };
      });
  });
