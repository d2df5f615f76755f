import type { Context } from 'koa';

/**
 * Who is calling, as a valid credential says: the client named by the bearer token, the user it acts
 * for (if any) and the scopes it was granted (empty when none). The DSL's `Caller` has the same
 * members; the runtime keeps its own copy since it imports nothing of the DSL.
 */
export interface Caller {
  readonly client: string;
  readonly user?: string;
  readonly scopes: readonly string[];
}

/**
 * The caller of a request: left on `ctx.state.auth` by authenticate() once the credential is
 * verified; undefined before that, for a request without a valid credential, and on open routes
 * (health checks). Handlers, rules and row access all read it here.
 *
 * @example
 * app.use(bearerAuth({ store }));
 * app.use((ctx) => { ctx.body = { client: callerOf(ctx)?.client, scopes: callerOf(ctx)?.scopes }; });
 */
export function callerOf(ctx: Context): Caller | undefined {
  return (ctx.state as { auth?: Caller }).auth;
}

/** True when the caller holds every scope of `needed`. */
export function hasScopes(caller: Caller | undefined, needed: readonly string[]): boolean {
  return needed.every((scope) => caller?.scopes.includes(scope) === true);
}
