import type { Context } from 'koa';
import { requestHeader } from '../http/headers.ts';
import { peerAddress } from '../limits/client-key.ts';
import { batchedUuid } from './uuid-batch.ts';

/** What an incoming X-Request-Id may look like to be kept: short, printable, nothing a log line could be forged with. */
const ACCEPTABLE = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

const REQUEST_ID_STATE = 'requestId';

/**
 * The request's id: the X-Request-Id a trusted proxy sent (when it is well-formed), else a new UUID.
 * A client that is not a trusted proxy cannot choose the id its requests are logged under.
 */
export function assignRequestId(ctx: Context, trustedProxies: readonly string[]): string {
  const incoming = trustedProxies.length === 0 ? '' : requestHeader(ctx, 'x-request-id');
  const id =
    incoming !== '' && ACCEPTABLE.test(incoming) && trustedProxies.includes(peerAddress(ctx))
      ? incoming
      : batchedUuid();
  (ctx.state as Record<string, unknown>)[REQUEST_ID_STATE] = id;
  return id;
}

/** The id assignRequestId() gave this request, if any. */
export function requestIdOf(ctx: Context): string | undefined {
  return (ctx.state as Record<string, unknown>)[REQUEST_ID_STATE] as string | undefined;
}
