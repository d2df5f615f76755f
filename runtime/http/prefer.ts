import type { Context } from 'koa';
import { requestHeader, setJsonBody, setResponseHeader } from './headers.ts';

/**
 * The preferences of a `Prefer` request header (RFC 7240): name (lowercase) to value ('' for a bare
 * token), quotes removed, parameters after `;` ignored. A preference given twice counts once, the
 * first time, as the RFC says.
 */
export function preferencesOf(header: string): ReadonlyMap<string, string> {
  const found = new Map<string, string>();
  for (const item of header.split(',')) {
    const [preference = ''] = item.split(';');
    const equals = preference.indexOf('=');
    const name = (equals < 0 ? preference : preference.slice(0, equals)).trim().toLowerCase();
    if (name === '' || found.has(name)) continue;
    const value =
      equals < 0
        ? ''
        : preference
            .slice(equals + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    found.set(name, value);
  }
  return found;
}

/** Whether the request says `Prefer: return=minimal`: the client wants no representation back. */
export function prefersMinimalReturn(ctx: Context): boolean {
  const header = requestHeader(ctx, 'prefer');
  return header !== '' && preferencesOf(header).get('return')?.toLowerCase() === 'minimal';
}

/**
 * The answer of a successful PUT or PATCH: the resource as it now is (200), or, when the request
 * prefers `return=minimal`, 204 with no body and `Preference-Applied: return=minimal`. `render` is
 * called only when the representation is sent.
 */
export function answerWritten(ctx: Context, render: () => unknown): void {
  if (prefersMinimalReturn(ctx)) return answerMinimal(ctx);
  setJsonBody(ctx, render());
}

/** 204 with no body and `Preference-Applied: return=minimal`: the answer to `Prefer: return=minimal`. */
export function answerMinimal(ctx: Context): void {
  ctx.status = 204;
  setResponseHeader(ctx, 'Preference-Applied', 'return=minimal');
}
