import type { ResolvedField } from '../../model/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';

/** Every field of a declaration, nested ones and those of each version's own shape included, each once. */
export function everyField(declaration: ReturnType<typeof allDeclarations>[number]): ResolvedField[] {
  const all: ResolvedField[] = [];
  const visit = (fields: readonly ResolvedField[]) => {
    for (const field of fields) {
      all.push(field);
      visit(field.fields ?? []);
    }
  };
  if ('fields' in declaration) visit(declaration.fields);
  for (const version of declaration.versions) if (version.shaped) visit(version.fields);
  return [...new Map(all.map((field) => [field.access.join('.'), field])).values()];
}

/**
 * invalid-default: a field's default is a value the field itself accepts (its type and its own
 * checks: minLength, min, format...). A create that leaves the field out stores the default, and
 * rows stored before the field existed are served with it: a value the field refuses would be
 * served but could never be written back.
 */
export const invalidDefault: Rule = ({ model }) =>
  allDeclarations(model).flatMap((declaration): Finding[] =>
    everyField(declaration)
      .filter((field) => field.invalidDefault !== undefined)
      .map((field) => ({
        rule: 'invalid-default',
        source: declaration.source,
        at: [...field.access, 'default'],
        message: `the default of field "${field.name}" of ${declaration.kind} "${declaration.name}" is not a value the field accepts: ${field.invalidDefault}; give a default that passes the field's own checks`,
      })),
  );
