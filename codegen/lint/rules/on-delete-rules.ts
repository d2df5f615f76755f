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

/**
 * on-delete-array: an array of references always restricts (a delete of a row it names is 409), so
 * an item that declares cascade or set-null would promise what no delete does.
 */
export const onDeleteArray: Rule = ({ model }) =>
  [...model.collections, ...model.aggregates].flatMap((declaration): Finding[] =>
    declaration.fields
      .filter((field) => field.kind === 'array' && field.items?.onDelete !== undefined)
      .map((field) => ({
        rule: 'on-delete-array',
        source: declaration.source,
        at: [...field.items!.access],
        message: `array "${field.name}" of ${declaration.kind} "${declaration.name}" declares onDelete: '${field.items!.onDelete!}' on its items, but an array of references always restricts: deleting a ${field.references ?? 'target'} row it names is refused with 409; drop onDelete, or make it a single reference`,
      })),
  );
