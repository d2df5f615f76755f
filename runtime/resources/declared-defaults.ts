import type { FieldModel } from './model.ts';

/**
 * The stored values of a resource nobody has written yet: each field's declared default. What an
 * aggregate or a setting answers before its first write.
 */
export function declaredDefaults(fields: readonly FieldModel[]): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const field of fields) if (field.default !== undefined) defaults[field.name] = field.default;
  return defaults;
}

/**
 * How a write of a resource that always exists (an aggregate, a setting) reads its body: PUT
 * replaces it whole; PATCH changes what it sends, except before the first write, when there is
 * nothing stored to change and the PATCH is read as a whole value (required fields without a
 * default must be sent; fields left out take their defaults).
 */
export function alwaysPresentMode(method: 'replace' | 'update', written: boolean): 'replace' | 'update' | 'create' {
  if (method === 'replace') return 'replace';
  return written ? 'update' : 'create';
}
