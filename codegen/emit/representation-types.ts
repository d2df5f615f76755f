import type { ResolvedField } from '../model/index.ts';

const SCALAR_TYPES: Record<string, string> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  time: 'string',
  reference: 'string',
};

/**
 * The TypeScript type of a representation property as clients receive it: references are URIs
 * (strings), times ISO 8601 strings, nested objects spelled out.
 */
export function typeOfField(field: ResolvedField): string {
  if (field.kind === 'object') {
    const members = (field.fields ?? []).map(
      (nested) => `${nested.name}${nested.required ? '' : '?'}: ${typeOfField(nested)}`,
    );
    return `{ ${members.join('; ')} }`;
  }
  if (field.kind === 'array') return `Array<${field.items === undefined ? 'unknown' : typeOfField(field.items)}>`;
  if (field.values !== undefined) return field.values.map((value) => JSON.stringify(value)).join(' | ');
  return SCALAR_TYPES[field.kind] ?? 'unknown';
}

/** Interface properties for a list of fields: optional unless required (null fields are left out). */
export function propertiesOf(fields: readonly ResolvedField[]) {
  return fields.map((field) => ({
    name: field.name,
    type: typeOfField(field),
    hasQuestionToken: !field.required,
    ...(field.description === undefined ? {} : { docs: [field.description] }),
  }));
}
