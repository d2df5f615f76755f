import type { Context } from 'koa';
import { setResponseHeader } from '../http/headers.ts';
import { rememberRecent } from '../caching/recent-results.ts';

/**
 * Paging metadata travels in headers, never in the body: X-Total-Count, and a standard Link header
 * with next/prev/first (RFC 8288) built on the absolute base URL and the request's own query.
 * `served`: how many rows the page carries, when fewer than `limit` were served of those there are
 * (a page cut short by its size, page-budget.ts): next then continues after the last one served.
 */
export function setPagingHeaders(
  ctx: Context,
  baseUrl: string,
  total: number,
  limit: number,
  offset: number,
  served = limit,
): void {
  setResponseHeader(ctx, 'X-Total-Count', String(total));
  setResponseHeader(
    ctx,
    'Link',
    recentLinks(`${total} ${limit} ${offset} ${served} ${baseUrl}${ctx.path}?${ctx.querystring}`),
  );
}

/** The Link header of the last pages listed, by `total limit offset served url` (the URL last: it may hold spaces). */
const recentLinks = rememberRecent((key: string) => {
  const [, total, limit, offset, served, url] = /^(\d+) (\d+) (\d+) (\d+) (.*)$/s.exec(key)!;
  return pagingLinks(url!, Number(total), Number(limit), Number(offset), Number(served));
});

function pagingLinks(url: string, total: number, limit: number, offset: number, served: number): string {
  const at = url.indexOf('?');
  // Parsed once for every link: each link sets both limit and offset, so the positions they take in
  // the query are the ones a fresh parse of the request's query would give them.
  const query = new URLSearchParams(url.slice(at + 1));
  const target = `<${url.slice(0, at)}?`;
  query.set('limit', String(limit));
  const link = (rel: string, to: number) => {
    query.set('offset', String(to));
    return `${target}${query.toString()}>; rel="${rel}"`;
  };
  const links = [link('first', 0)];
  const next = offset + Math.min(limit, served);
  if (next < total) links.push(link('next', next));
  if (offset > 0) links.push(link('prev', Math.max(0, offset - limit)));
  return links.join(', ');
}
