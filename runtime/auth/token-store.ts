import { createHash, randomBytes } from 'node:crypto';
import type { Maybe } from '../storage/index.ts';
import type { Caller } from './caller.ts';
import { scopesOf } from './scopes.ts';

/**
 * Who a valid credential speaks for: a client, the user it acts for when the grant names one, and
 * the scopes the token was issued with.
 */
export type Principal = Caller;

/** The outcome of checking a bearer token. Unknown and revoked are one outcome: never say which. */
export type Verification =
  /** `expiresAtMs`: when the credential stops being valid (epoch ms); a cached answer is not reused past it. */
  | { readonly ok: true; readonly principal: Principal; readonly expiresAtMs?: number }
  | { readonly ok: false; readonly reason: 'invalid' | 'expired' | 'refused' };

export interface IssueOptions {
  readonly client: string;
  readonly user?: string;
  /** Lifetime in seconds (fractions allowed); no expiry when omitted. Kept to the millisecond. */
  readonly ttlSeconds?: number;
  /** The scopes the token grants (RFC 6749 scope-tokens, `notes:write`); none when omitted. */
  readonly scopes?: readonly string[];
}

/**
 * Clients, grants (a client, optionally for a user) and tokens. Tokens are random and stored only as
 * hashes. SqliteTokenStore answers at once, PostgresTokenStore with promises.
 */
export interface TokenStore {
  /** Creates the client and grant as needed and returns a new token (the only time it is seen). */
  issue(options: IssueOptions): Maybe<string>;
  verify(token: string): Maybe<Verification>;
  /** True when a token was revoked (false when it was unknown or already revoked). */
  revoke(token: string): Maybe<boolean>;
  /** Revokes a grant and every token issued under it. */
  revokeGrant(client: string, user?: string): Maybe<boolean>;
  /** Refuses a client: every token of it is answered 403 client_refused. */
  refuseClient(client: string): Maybe<void>;
}

/** 256 bits from the system's CSPRNG, base64url: 43 characters. */
export const newToken = () => randomBytes(32).toString('base64url');

/** What the stores keep of a token: its SHA-256, never the token. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Now, in the Unix seconds the tables' created_at columns hold. */
export const unixNow = () => Math.floor(Date.now() / 1000);

/**
 * A token's expiry as both columns hold it: `expires_at_ms` (epoch ms, what is compared) and
 * `expires_at` (epoch seconds, rounded up), still written so that a server of an older version
 * sharing the database keeps reading tokens as it did. Null for a token that never expires.
 */
export function expiryOf(
  ttlSeconds: number | undefined,
  nowMs = Date.now(),
): { readonly ms: number | null; readonly seconds: number | null } {
  if (ttlSeconds === undefined) return { ms: null, seconds: null };
  const ms = nowMs + Math.round(ttlSeconds * 1000);
  return { ms, seconds: Math.ceil(ms / 1000) };
}

/**
 * The verify query's expiry, in ms: `expires_at_ms`, or, for a row an older version wrote after the
 * migration, its whole seconds.
 */
export const EXPIRY_MS_SQL = 'COALESCE(t.expires_at_ms, t.expires_at * 1000) AS expires_at_ms';

/**
 * The stored row an unknown token is answered from: a revoked token whose hash no token can have (a
 * SHA-256 is 64 hex digits), under a revoked grant of the blank client, a name no issuer accepts. An
 * unknown token and a revoked one then take one path: the same statement, the same index lookups and
 * joins, one row of the same shape, refused by the same check, so timing cannot tell them apart.
 */
export const UNKNOWN_TOKEN = { hash: 'unknown token', client: '' } as const;

/**
 * The verify query of both stores (`?` for the token's hash; PostgreSQL numbers it). It reads one
 * row whether the token is known or not: the token's own, or UNKNOWN_TOKEN's.
 */
export const verifySql = (
  hashParameter: string,
) => `SELECT ${EXPIRY_MS_SQL}, t.scopes, t.revoked AS token_revoked, g.revoked AS grant_revoked, g.user_name, c.name AS client, c.refused
  FROM auth_tokens t JOIN auth_grants g ON g.grant_id = t.grant_id JOIN auth_clients c ON c.name = g.client
  WHERE t.token_hash = COALESCE((SELECT token_hash FROM auth_tokens WHERE token_hash = ${hashParameter}), '${UNKNOWN_TOKEN.hash}')`;

/** A client name as issue() takes it: not blank (the blank client holds UNKNOWN_TOKEN). */
export function issuedClient(client: string): string {
  if (client.trim() === '') throw new TypeError('a token is issued for a client: its name must not be blank');
  return client;
}

/** The scopes a token is issued with, as its `scopes` column holds them: space-separated. */
export function scopesColumn(scopes: readonly string[] | undefined): string {
  for (const scope of scopes ?? [])
    if (scopesOf(scope).length !== 1)
      throw new TypeError(
        `"${scope}" is not a scope: printable ASCII without spaces, quotes or backslashes (notes:write)`,
      );
  return [...new Set(scopes ?? [])].join(' ');
}

/** The row a store's verify query reads: the token joined with its grant and client. */
export interface TokenRow {
  readonly expires_at_ms: number | bigint | string | null;
  readonly token_revoked: number | boolean;
  readonly grant_revoked: number | boolean;
  readonly user_name: string;
  readonly client: string;
  readonly refused: number | boolean;
  /** The token's scopes, space-separated ('' for none). */
  readonly scopes: string | null;
}

/** The decision on a token row, the same in every store: revoked before refused before expired. */
export function verificationOf(row: TokenRow | undefined): Verification {
  const yes = (flag: number | boolean) => flag === 1 || flag === true;
  if (row === undefined || yes(row.token_revoked) || yes(row.grant_revoked)) return { ok: false, reason: 'invalid' };
  if (yes(row.refused)) return { ok: false, reason: 'refused' };
  const expiresAtMs = row.expires_at_ms === null ? undefined : Number(row.expires_at_ms);
  if (expiresAtMs !== undefined && expiresAtMs <= Date.now()) return { ok: false, reason: 'expired' };
  const scopes = scopesOf(row.scopes ?? '');
  const principal =
    row.user_name === '' ? { client: row.client, scopes } : { client: row.client, user: row.user_name, scopes };
  return expiresAtMs === undefined ? { ok: true, principal } : { ok: true, principal, expiresAtMs };
}
