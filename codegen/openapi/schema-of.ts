import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** A value reached by a property path from a definition's default export (a field's declaration). */
export function valueAt(root: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>(
    (value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
    root,
  );
}

/**
 * The JSON Schema of a zod schema, as zod 4 itself writes it (draft 2020-12, the form OpenAPI 3.1
 * uses), in its input form: what a client may send. Without the `$schema` member, which does not
 * belong inside an OpenAPI document.
 */
export function jsonSchemaOf(schema: unknown): JsonSchema {
  if (!(schema instanceof z.ZodType)) return {};
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}
