import { ApiError, badRequest, type ErrorEntry } from '../errors/index.ts';
import type { VersionModel } from './model.ts';
import { tooLongStrings } from './string-lengths.ts';
import { zodProblems } from './zod-problems.ts';

/** create: every required field; replace: the whole resource; update: only what is sent (null clears). */
export type WriteMode = 'create' | 'replace' | 'update';

export interface WriteInputOptions {
  readonly mode: WriteMode;
  /** Server-set properties (identifier, created_at) with their current values, if any. */
  readonly readOnly: Readonly<Record<string, unknown>>;
  readonly resource: string;
}

/**
 * Checks a written representation against a version's fields and returns the representation's
 * values (null for a cleared field). Every problem is reported at once, each entry naming its field:
 * missing_field, unknown_field, read_only_field (the identifier, created_at, a field declared readOnly),
 * value_too_long (a string over its field's maxLength), invalid_field, null_not_allowed (null outside a partial update).
 * A create or a replace that leaves out a field with a default stores the default (lint holds it to
 * the field's own checks); a partial update leaves it as it is.
 */
export function parseWriteInput(
  body: unknown,
  version: VersionModel,
  options: WriteInputOptions,
): Record<string, unknown> {
  if (body === undefined)
    throw badRequest('missing_body', 'this request needs a JSON object body', { resource: options.resource });
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('invalid_body', 'the request body must be a JSON object', { resource: options.resource });
  }
  const input = body as Record<string, unknown>;
  const problems: ErrorEntry[] = [];
  const values: Record<string, unknown> = {};
  const byName = new Map(version.fields.map((field) => [field.name, field]));

  for (const [name, value] of Object.entries(input)) {
    // JSON has no undefined: only the server's own code (a rule, an operation) passes one, for a value
    // it does not have (`capacity: original.capacity` of a row without one). It is a member left out.
    if (value === undefined) continue;
    if (Object.hasOwn(options.readOnly, name)) {
      const current = options.readOnly[name];
      if (options.mode === 'create' || current === undefined || String(current) !== String(value)) {
        problems.push(
          entry('read_only_field', `${name} is set by the server and cannot be written`, name, options.resource),
        );
      }
      continue;
    }
    const field = byName.get(name);
    if (field === undefined) {
      problems.push(entry('unknown_field', `${options.resource} have no field ${name}`, name, options.resource));
      continue;
    }
    if (field.readOnly === true) {
      problems.push(
        entry('read_only_field', `${name} is set by the server and cannot be written`, name, options.resource),
      );
      continue;
    }
    if (value === null) {
      // Only a partial update clears with null; a create or a replace leaves the field out instead,
      // as the OpenAPI write schemas say (they allow null only in the Patch schema).
      if (field.required)
        problems.push(entry('missing_field', `${name} is required and cannot be null`, name, options.resource));
      else if (options.mode !== 'update')
        problems.push(
          entry('null_not_allowed', `${name} cannot be null here: leave it out instead`, name, options.resource),
        );
      else values[name] = null;
      continue;
    }
    const tooLong = tooLongStrings(field, value, name, options.resource);
    if (tooLong.length > 0) {
      problems.push(...tooLong);
      continue;
    }
    const parsed = field.schema.safeParse(value);
    if (!parsed.success) problems.push(...zodProblems(parsed.error, options.resource, value, [name]));
    else values[name] = parsed.data;
  }

  if (options.mode !== 'update') {
    for (const field of version.fields) {
      // A read-only field is the server's: never missing, never cleared by a replace.
      if ((Object.hasOwn(input, field.name) && input[field.name] !== undefined) || field.readOnly === true) continue;
      // Left out of a complete write: the default when there is one (required or not), else missing or cleared.
      if (field.default !== undefined) values[field.name] = field.default;
      else if (field.required)
        problems.push(entry('missing_field', `${field.name} is required`, field.name, options.resource));
      else if (options.mode === 'replace') values[field.name] = null;
    }
  }
  if (problems.length > 0) throw invalidInput(problems);
  return values;
}

function entry(code: string, message: string, field: string, resource: string): ErrorEntry {
  return { code, message, field, resource };
}

/** One 400 carrying every entry, the first one as the headline. */
export function invalidInput(problems: readonly ErrorEntry[]): ApiError {
  const [first, ...more] = problems as [ErrorEntry, ...ErrorEntry[]];
  return new ApiError(400, first.code, first.message, {
    ...(first.field === undefined ? {} : { field: first.field }),
    ...(first.resource === undefined ? {} : { resource: first.resource }),
    more,
  });
}

/** The stored fields a representation maps to (identity unless the version declares a shape). */
export function toStored(version: VersionModel, values: Record<string, unknown>): Record<string, unknown> {
  return version.write === undefined ? values : version.write(values);
}

/**
 * Every stored field a client writes set to null: a PUT replaces the whole resource, so what it
 * omits is cleared. Read-only fields stay: the server set them (computed ones are computed again).
 */
export function clearedFields(model: {
  readonly fields: readonly { readonly name: string; readonly readOnly?: boolean }[];
}): Record<string, unknown> {
  return Object.fromEntries(model.fields.filter((field) => field.readOnly !== true).map((field) => [field.name, null]));
}

/** The representation stored fields map to (identity unless the version declares a shape). */
export function fromStored(version: VersionModel, stored: Record<string, unknown>): Record<string, unknown> {
  return version.read === undefined ? stored : version.read(stored);
}
