import type { ResolvedField } from '../../model/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';

/**
 * How many objects deep a field may nest: a top-level `address` object is depth 1, an object inside
 * it depth 2, one inside that depth 3. A deeper value is a document of its own: a collection the
 * row refers to.
 */
export const OBJECT_DEPTH = 3;

/** Every field a declaration or its version shapes declare, with the number of objects around it. */
function fieldsWithDepth(declaration: ReturnType<typeof allDeclarations>[number]) {
  const found = new Map<string, { field: ResolvedField; around: number }>();
  const visit = (fields: readonly ResolvedField[], around: number) => {
    for (const field of fields) {
      found.set(field.access.join('.'), { field, around });
      visit(field.fields ?? [], around + 1);
    }
  };
  if ('fields' in declaration) visit(declaration.fields, 0);
  for (const version of declaration.versions) if (version.shaped) visit(version.fields, 0);
  return [...found.values()];
}

/** object-depth: a nested object nests at most OBJECT_DEPTH objects deep (itself included). */
export const objectDepthRule: Rule = ({ model }) =>
  allDeclarations(model).flatMap((declaration): Finding[] =>
    fieldsWithDepth(declaration)
      .filter(({ field, around }) => field.kind === 'object' && around === OBJECT_DEPTH)
      .map(({ field }) => ({
        rule: 'object-depth',
        source: declaration.source,
        at: field.access,
        message: `nested object "${field.name}" is ${OBJECT_DEPTH + 1} objects deep, but objects nest at most ${OBJECT_DEPTH} deep: flatten it into its parent, or make it a collection the row refers to`,
      })),
  );

/**
 * object-reference: a field inside a nested object is stored and served as it is written, so a
 * reference there would be a bare identifier, never a URI, never checked or inlined.
 */
export const objectReference: Rule = ({ model }) =>
  allDeclarations(model).flatMap((declaration): Finding[] =>
    fieldsWithDepth(declaration)
      .filter(({ field, around }) => field.references !== undefined && around > 0)
      .map(({ field }) => ({
        rule: 'object-reference',
        source: declaration.source,
        at: field.access,
        message: `field "${field.name}" is a reference inside a nested object, where it would be served as a bare identifier: declare it at the top level of the ${declaration.kind}`,
      })),
  );
