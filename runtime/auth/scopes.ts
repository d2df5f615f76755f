import { forbidden } from '../errors/index.ts';

/**
 * One scope as OAuth 2.0 writes it (RFC 6749 3.3): printable ASCII but space, `"` and `\`. Scopes
 * travel space-separated, so a scope can hold none of those.
 */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** True when `scope` can be granted and checked: one RFC 6749 scope-token (`notes:write`). */
export const isScopeToken = (scope: string) => SCOPE_TOKEN.test(scope);

/** The scopes of no credential and of a token issued without `--scope`: shared, never changed. */
export const NO_SCOPES: readonly string[] = Object.freeze([]);

/**
 * Scopes as a credential carries them: a space-separated string (`scope` of a JWT, the token
 * stores' column) or an array of strings (`scp`). Empty entries, repeats and anything that is not a
 * scope-token are dropped; the order of first appearance is kept.
 */
export function scopesOf(carried: unknown): readonly string[] {
  const listed =
    typeof carried === 'string'
      ? carried.split(' ')
      : Array.isArray(carried)
        ? carried.filter((item): item is string => typeof item === 'string')
        : [];
  const scopes = [...new Set(listed.filter((scope) => scope !== '' && isScopeToken(scope)))];
  return scopes.length === 0 ? NO_SCOPES : Object.freeze(scopes);
}

/**
 * 403 insufficient_scope (RFC 6750 3.1): the caller's token lacks a scope the operation needs. The
 * challenge names every scope needed, so a client knows what to ask its authorization server for.
 */
export function insufficientScope(needed: readonly string[], missing: readonly string[]) {
  return forbidden(
    'insufficient_scope',
    `this operation needs the scope${needed.length === 1 ? '' : 's'} ${needed.join(', ')}; the bearer token lacks ${missing.join(', ')}`,
    {
      headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${needed.join(' ')}"` },
    },
  );
}
