import type { FieldModel } from './model.ts';

/**
 * A stored nested object with its members in the declared order, at every depth. PostgreSQL's jsonb
 * keeps an object's keys in its own order (shorter keys first), SQLite's JSON text in the order
 * written: both engines serve the members as the declaration lists them. A member the declaration
 * does not list (none is written: the schema is strict) is left out.
 */
export function inDeclaredOrder(field: FieldModel, value: unknown): unknown {
  if (field.fields === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const members = value as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const nested of field.fields)
    if (members[nested.name] !== undefined) ordered[nested.name] = inDeclaredOrder(nested, members[nested.name]);
  return ordered;
}
