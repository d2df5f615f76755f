import type { JSONWebKeySet, JWTPayload } from 'jose';
import type { Principal, Verification } from './token-store.ts';
import { scopesOf } from './scopes.ts';

export interface JwtOptions {
  /** Expected `iss`. */
  readonly issuer: string;
  /** Expected `aud`. */
  readonly audience: string;
  /** Accepted algorithms, pinned: a token signed otherwise (or `alg: none`) is refused. */
  readonly algorithms: readonly string[];
  /** An HMAC secret (for HS256/384/512)... */
  readonly secret?: string;
  /** ...or a local JSON Web Key Set (for RS*, ES*, PS*, EdDSA). */
  readonly jwks?: JSONWebKeySet;
  /** Claim naming the client. Default: `client_id`, then `azp`, then `sub`. */
  readonly clientClaim?: string;
  /** Claim naming the user. Default `sub` (only when a client claim names someone else). */
  readonly userClaim?: string;
}

/**
 * The scopes a JWT grants: `scope`, a space-separated string (RFC 8693, RFC 9068), and `scp`, an
 * array of strings or a space-separated string (Microsoft Entra, Okta); a token carrying both grants
 * both.
 */
export function jwtScopes(payload: JWTPayload): readonly string[] {
  const scope = scopesOf(payload.scope);
  const scp = scopesOf(payload.scp);
  if (scp.length === 0) return scope;
  return scope.length === 0 ? scp : scopesOf([...scope, ...scp]);
}

/** Three base64url parts: the shape of a compact JWS. Opaque tokens never have dots. */
export const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);

/**
 * Verifies JWTs issued elsewhere (jose): signature with the configured key and pinned algorithms,
 * `iss`, `aud`, `exp` and `nbf`. Expired → expired; anything else wrong → invalid.
 *
 * jose (about 90 modules) is loaded with the first JWT to verify, not at start-up: a server whose
 * callers send opaque tokens only never holds it in memory.
 */
export function jwtVerifier(options: JwtOptions): (token: string) => Promise<Verification> {
  if (options.algorithms.length === 0) throw new Error('JWT verification needs a pinned list of algorithms');
  if (options.algorithms.some((alg) => alg.toLowerCase() === 'none'))
    throw new Error('alg "none" can never be accepted');
  if ((options.secret === undefined) === (options.jwks === undefined))
    throw new Error('JWT verification needs exactly one of secret or jwks');
  // jose checks the key set's shape only once loaded: this check keeps a malformed one a start-up error.
  if (options.jwks !== undefined && !isKeySet(options.jwks))
    throw new Error('JWT verification: the JSON Web Key Set is malformed (expected {"keys": [ {...}, ... ]})');
  let loading: Promise<Verifying> | undefined;
  return async (token) => {
    const { jose, key } = await (loading ??= loadVerifying(options));
    try {
      const { payload } = await jose.jwtVerify(token, key, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: [...options.algorithms],
      });
      const principal = principalOf(payload, options);
      if (principal === undefined) return { ok: false, reason: 'invalid' };
      // exp is in seconds (RFC 7519); a cached answer is not reused past it.
      return typeof payload.exp === 'number'
        ? { ok: true, principal, expiresAtMs: payload.exp * 1000 }
        : { ok: true, principal };
    } catch (error) {
      return { ok: false, reason: error instanceof jose.errors.JWTExpired ? 'expired' : 'invalid' };
    }
  };
}

type Jose = typeof import('jose');
interface Verifying {
  readonly jose: Jose;
  readonly key: Parameters<Jose['jwtVerify']>[1];
}

function isKeySet(value: unknown): boolean {
  const keys = (value as { keys?: unknown } | null)?.keys;
  return Array.isArray(keys) && keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key));
}

async function loadVerifying(options: JwtOptions): Promise<Verifying> {
  const jose = await import('jose');
  const key =
    options.secret !== undefined ? new TextEncoder().encode(options.secret) : jose.createLocalJWKSet(options.jwks!);
  return { jose, key: key as Verifying['key'] };
}

function principalOf(payload: JWTPayload, options: JwtOptions): Principal | undefined {
  const claim = (name: string) =>
    typeof payload[name] === 'string' && payload[name] !== '' ? (payload[name] as string) : undefined;
  const client =
    options.clientClaim !== undefined
      ? claim(options.clientClaim)
      : (claim('client_id') ?? claim('azp') ?? claim('sub'));
  if (client === undefined) return undefined;
  const user = claim(options.userClaim ?? 'sub');
  const scopes = jwtScopes(payload);
  return user === undefined || user === client ? { client, scopes } : { client, user, scopes };
}
