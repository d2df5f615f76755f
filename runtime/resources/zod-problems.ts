import type { ZodError } from 'zod';
import type { ErrorEntry } from '../errors/index.ts';

/**
 * Zod issues as error entries, each naming its field by path: an unknown member is
 * `unknown_field`, a missing one `missing_field`, anything else `invalid_field`.
 */
export function zodProblems(error: ZodError, resource: string, prefix: readonly string[] = []): ErrorEntry[] {
  return error.issues.flatMap((issue): ErrorEntry[] => {
    const path = [...prefix, ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ code: 'unknown_field', message: `${[...path, key].join('.')} is not understood here`, field: [...path, key].join('.'), resource }));
    }
    const field = path.join('.') || 'body';
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    return [{ code: missing ? 'missing_field' : 'invalid_field', message: `${field}: ${missing ? 'is required' : issue.message}`, field, resource }];
  });
}
