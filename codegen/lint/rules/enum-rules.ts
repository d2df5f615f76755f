import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';
import { everyField } from './default-rules.ts';

/** What is wrong with an enum's values, if anything: none, an empty one, or one listed twice. */
function problemOf(values: readonly string[]): string | undefined {
  if (values.length === 0) return 'lists no value, so no write could ever set it';
  if (values.includes('')) return 'lists the empty string, which a query string cannot tell from no filter';
  const repeated = values.find((value, index) => values.indexOf(value) !== index);
  return repeated === undefined ? undefined : `lists "${repeated}" twice`;
}

/**
 * enum-values: an enum lists at least one value, none empty and none twice: the values become the
 * OpenAPI `enum` (whose items must be unique) and the filter's allowed values.
 */
export const enumValues: Rule = ({ model }) =>
  allDeclarations(model).flatMap((declaration): Finding[] =>
    everyField(declaration).flatMap((field): Finding[] => {
      const problem = field.values === undefined ? undefined : problemOf(field.values);
      if (problem === undefined) return [];
      return [
        {
          rule: 'enum-values',
          source: declaration.source,
          at: field.access,
          argument: true,
          message: `enum field "${field.name}" ${problem}: list each value once, none empty`,
        },
      ];
    }),
  );
