import type { Context } from 'koa';

/**
 * Paging metadata travels in headers, never in the body: X-Total-Count, and a standard Link header
 * with next/prev/first (RFC 8288) built on the absolute base URL and the request's own query.
 */
export function setPagingHeaders(ctx: Context, baseUrl: string, total: number, limit: number, offset: number): void {
  ctx.set('X-Total-Count', String(total));
  const link = (rel: string, at: number) => {
    const query = new URLSearchParams(ctx.querystring);
    query.set('limit', String(limit));
    query.set('offset', String(at));
    return `<${baseUrl}${ctx.path}?${query.toString()}>; rel="${rel}"`;
  };
  const links = [link('first', 0)];
  if (offset + limit < total) links.push(link('next', offset + limit));
  if (offset > 0) links.push(link('prev', Math.max(0, offset - limit)));
  ctx.set('Link', links.join(', '));
}
