import type { Context } from 'koa';
import { badRequest } from '../errors/index.ts';
import { requestHeader } from '../http/headers.ts';

/**
 * The names listed in X-Result-Fields (conventions: only these fields are returned), or undefined
 * when the header is absent. Names are checked against `known`; an unknown one gets 400 naming it.
 */
export function resultFields(ctx: Context, known: readonly string[]): string[] | undefined {
  const header = requestHeader(ctx, 'x-result-fields');
  if (header.trim() === '') return undefined;
  const names = header.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!known.includes(name)) {
      throw badRequest(
        'unknown_result_field',
        `X-Result-Fields names "${name}", which this resource does not have; known: ${known.join(', ')}`,
        {
          field: name,
        },
      );
    }
  }
  return [...new Set(names)];
}

/** Whether X-Expansion-Fields asks for sub-objects inline; only `true` and `false` are understood. */
export function expansionRequested(ctx: Context): boolean {
  const header = requestHeader(ctx, 'x-expansion-fields').trim().toLowerCase();
  if (header === '' || header === 'false') return false;
  if (header === 'true') return true;
  throw badRequest('invalid_header', 'X-Expansion-Fields must be true or false', { field: 'X-Expansion-Fields' });
}

/** Keeps only the named top-level members (X-Result-Fields), in the order of the representation. */
export function project(
  representation: Record<string, unknown>,
  names: readonly string[] | undefined,
): Record<string, unknown> {
  if (names === undefined) return representation;
  const projected: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(representation)) if (names.includes(key)) projected[key] = value;
  return projected;
}
