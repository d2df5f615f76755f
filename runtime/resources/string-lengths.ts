import type { ErrorEntry } from '../errors/index.ts';
import type { FieldModel } from './model.ts';

/**
 * A value_too_long entry for every string of `value` longer than its field's maxLength: the field
 * itself, or the nested fields of an object field, each named by its path (`profile.title`). Checked
 * before the field's own schema, so that a megabyte string costs no pattern or format check.
 */
export function tooLongStrings(field: FieldModel, value: unknown, path: string, resource: string): ErrorEntry[] {
  if (field.kind === 'object' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const members = value as Record<string, unknown>;
    return (field.fields ?? []).flatMap((nested) =>
      Object.hasOwn(members, nested.name)
        ? tooLongStrings(nested, members[nested.name], `${path}.${nested.name}`, resource)
        : [],
    );
  }
  if (field.maxLength === undefined || typeof value !== 'string' || value.length <= field.maxLength) return [];
  return [
    {
      code: 'value_too_long',
      message: `${path} is ${value.length} characters long: at most ${field.maxLength} are accepted`,
      field: path,
      resource,
    },
  ];
}
