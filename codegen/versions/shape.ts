import type { ResolvedField, ResolvedModel, ResolvedVersion } from '../model/index.ts';

/** One leaf of a version's shape: its path (`profile.state`), kind and whether writes need it. */
export interface ShapeField {
  readonly path: string;
  readonly kind: string;
  readonly required: boolean;
  /**
   * For strings: the most characters a write may carry (declared or default). Absent from shapes
   * recorded before strings were bounded (lint: published-string-bounded).
   */
  readonly maxLength?: number;
  /**
   * For enums and arrays of enums: the values a write may carry, in declared order. Absent for a
   * field that takes any value of its kind. Lint compares them with what is declared now.
   */
  readonly values?: readonly string[];
}

/** The kind a shape records: a reference names its collection, an array its items' kind. */
function kindOf(field: ResolvedField): string {
  if (field.kind === 'reference') return `reference(${field.references ?? ''})`;
  if (field.kind === 'array' && field.items !== undefined) return `array(${kindOf(field.items)})`;
  return field.kind;
}

function valuesOf(field: ResolvedField): { values?: readonly string[] } {
  const values = field.values ?? field.items?.values;
  return values === undefined ? {} : { values };
}

/** A version's shape as a sorted list of leaves: what publishing records and diffs compare. */
export function shapeOf(version: ResolvedVersion): ShapeField[] {
  const leaves = (fields: readonly ResolvedField[], prefix: string): ShapeField[] =>
    fields.flatMap((field) =>
      field.kind === 'object'
        ? leaves(field.fields ?? [], `${prefix}${field.name}.`)
        : [
            {
              path: `${prefix}${field.name}`,
              kind: kindOf(field),
              required: field.required,
              ...(field.stringLength === undefined ? {} : { maxLength: field.stringLength.max }),
              ...valuesOf(field),
            },
          ],
    );
  return leaves(version.fields, '').sort((a, b) => a.path.localeCompare(b.path));
}

/** Every declaration that has versions with fields, with its kind, name and source. */
export function shapedDeclarations(model: ResolvedModel) {
  return [...model.collections, ...model.aggregates, ...model.settings].sort((a, b) => a.name.localeCompare(b.name));
}
