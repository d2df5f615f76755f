import type { Context } from 'koa';
import { setJsonBody, setResponseHeader } from './headers.ts';

/**
 * The body of every redirect (301, 303): one link object of the conventions, `{"rel", "href"}`,
 * whose href is also the Location header.
 */
export interface LinkBody {
  readonly rel: string;
  readonly href: string;
}

/**
 * Answers a redirect: `status` (301 Moved Permanently, 303 See Other), `Location: href`, and the
 * link body `{"rel": rel, "href": href}`.
 *
 * @example
 * answerRedirect(ctx, 303, 'result', 'http://127.0.0.1:3000/v1/orders/7');
 */
export function answerRedirect(ctx: Context, status: 301 | 303, rel: string, href: string): void {
  ctx.status = status;
  setResponseHeader(ctx, 'Location', href);
  const body: LinkBody = { rel, href };
  setJsonBody(ctx, body);
}
