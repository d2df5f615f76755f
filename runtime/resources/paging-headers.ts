import type { Context } from 'koa';
import { setResponseHeader } from '../http/headers.ts';

/**
 * Paging metadata travels in headers, never in the body: X-Total-Count, and a standard Link header
 * with next/prev/first (RFC 8288) built on the absolute base URL and the request's own query.
 */
export function setPagingHeaders(ctx: Context, baseUrl: string, total: number, limit: number, offset: number): void {
  setResponseHeader(ctx, 'X-Total-Count', String(total));
  // Parsed once for every link: each link sets both limit and offset, so the positions they take in
  // the query are the ones a fresh parse of the request's query would give them.
  const query = new URLSearchParams(ctx.querystring);
  const target = `<${baseUrl}${ctx.path}?`;
  query.set('limit', String(limit));
  const link = (rel: string, at: number) => {
    query.set('offset', String(at));
    return `${target}${query.toString()}>; rel="${rel}"`;
  };
  const links = [link('first', 0)];
  if (offset + limit < total) links.push(link('next', offset + limit));
  if (offset > 0) links.push(link('prev', Math.max(0, offset - limit)));
  setResponseHeader(ctx, 'Link', links.join(', '));
}
