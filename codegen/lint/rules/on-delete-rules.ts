import type { Finding } from '../finding.ts';
import type { Rule } from './context.ts';

/**
 * on-delete-set-null: a reference that empties itself when its target is deleted cannot be required:
 * the update that empties it would be refused, so every delete of a target would fail.
 */
export const onDeleteSetNull: Rule = ({ model }) =>
  [...model.collections, ...model.aggregates].flatMap((declaration): Finding[] =>
    declaration.fields
      .filter((field) => field.onDelete === 'set-null' && field.required)
      .map((field) => ({
        rule: 'on-delete-set-null',
        source: declaration.source,
        at: [...field.access],
        message: `reference "${field.name}" of ${declaration.kind} "${declaration.name}" is required and declares onDelete: 'set-null': deleting its ${field.references ?? 'target'} row could never empty it; use 'cascade' or 'restrict', or make the field optional`,
      })),
  );
