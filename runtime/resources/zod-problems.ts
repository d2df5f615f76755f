import type { ZodError } from 'zod';
import type { ErrorEntry } from '../errors/index.ts';

/** The member of a parsed value at a zod issue's path, or undefined when it is absent. */
function memberAt(input: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined,
    input,
  );
}

/**
 * Zod issues as error entries, each naming its field by path: an unknown member is
 * `unknown_field`, a missing one `missing_field`, anything else `invalid_field`. `input` is the value
 * that was parsed (zod 4 does not keep it in its issues), to tell a missing member from a wrong one.
 */
export function zodProblems(
  error: ZodError,
  resource: string,
  input: unknown,
  prefix: readonly string[] = [],
): ErrorEntry[] {
  return error.issues.flatMap((issue): ErrorEntry[] => {
    const path = [...prefix, ...issue.path.map(String)];
    // An item of an array is named by its position: allergies[2], not allergies.2.
    const name = (segments: readonly string[]) =>
      segments.reduce(
        (text, segment, index) =>
          index > 0 && /^[0-9]+$/.test(segment) ? `${text}[${segment}]` : index === 0 ? segment : `${text}.${segment}`,
        '',
      );
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        code: 'unknown_field',
        message: `${name([...path, key])} is not understood here`,
        field: name([...path, key]),
        resource,
      }));
    }
    const field = name(path) || 'body';
    const missing = issue.code === 'invalid_type' && memberAt(input, issue.path) === undefined;
    return [
      {
        code: missing ? 'missing_field' : 'invalid_field',
        message: `${field}: ${missing ? 'is required' : issue.message}`,
        field,
        resource,
      },
    ];
  });
}
