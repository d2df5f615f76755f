import type { Context } from 'koa';
import { badRequest } from '../errors/index.ts';
import { requestHeader } from '../http/headers.ts';

export interface Presentation {
  readonly pretty: boolean;
}

/**
 * How the caller wants JSON laid out: pretty by default (the conventions recommend it), compact when
 * the request says `X-Pretty-Print: false`.
 */
export function presentationOf(ctx: Context, prettyByDefault = true): Presentation {
  const header = requestHeader(ctx, 'x-pretty-print').trim().toLowerCase();
  if (header === '') return { pretty: prettyByDefault };
  if (header === 'true' || header === 'false') return { pretty: header === 'true' };
  throw badRequest('invalid_header', 'X-Pretty-Print must be true or false', { field: 'X-Pretty-Print' });
}

/**
 * The text of a JSON body: two-space indentation when pretty, none otherwise. A string and not a
 * Buffer: Node sends a string body in the same write as the headers, a Buffer in a second one.
 */
export function serializeJson(value: unknown, { pretty }: Presentation): string {
  return pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value);
}
