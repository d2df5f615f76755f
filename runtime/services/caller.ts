import type { Context } from 'koa';
import { authOf } from '../auth/index.ts';

/** The authenticated caller of a request, if any: what service handlers and settings key on. */
export function callerOf(ctx: Context): { client: string; user?: string } | undefined {
  return authOf(ctx);
}
