import type { Context } from 'koa';

/** The authenticated caller the auth middleware left on ctx.state.auth, if any. */
export function callerOf(ctx: Context): { client: string; user?: string } | undefined {
  const auth = (ctx.state as { auth?: { client?: unknown; user?: unknown } }).auth;
  if (auth === undefined || typeof auth.client !== 'string') return undefined;
  return typeof auth.user === 'string' ? { client: auth.client, user: auth.user } : { client: auth.client };
}
