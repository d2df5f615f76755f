import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';
import { everyField } from './default-rules.ts';

/** The kinds a list can be sorted by: a scalar stored in a column of its own. */
const SORTABLE_KINDS = new Set(['string', 'integer', 'number', 'boolean', 'time']);

/**
 * sortable-field: `sortable` is for the top-level scalar fields of a collection, the ones a list can
 * be ordered by and that an index can serve; elsewhere (a reference, a nested object, a field inside
 * one, an aggregate's or a setting's field, which no list shows) it would promise a sort nobody gets.
 */
export const sortableField: Rule = ({ model }) =>
  allDeclarations(model).flatMap((declaration): Finding[] => {
    const topLevel = new Set(declaration.kind === 'collection' ? declaration.fields : []);
    return everyField(declaration)
      .filter((field) => field.sortable && (!topLevel.has(field) || !SORTABLE_KINDS.has(field.kind)))
      .map((field) => {
        const why = !SORTABLE_KINDS.has(field.kind)
          ? `a ${field.kind} field cannot order a list`
          : declaration.kind === 'collection'
            ? 'a nested field cannot order a list'
            : `${declaration.kind} "${declaration.name}" is never listed`;
        return {
          rule: 'sortable-field',
          source: declaration.source,
          at: [...field.access, 'sortable'],
          message: `field "${field.name}" is declared sortable, but ${why}: remove sortable, or sort by a string, integer, number, boolean or time field of the collection`,
        };
      });
  });
