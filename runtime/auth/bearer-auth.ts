import type { Context, Middleware, Next } from 'koa';
import compose from 'koa-compose';
import { ApiError, badRequest, dependencyFaultError, forbidden, unauthorized } from '../errors/index.ts';
import { jwtVerifier, looksLikeJwt, type JwtOptions } from './jwt-verifier.ts';
import type { Principal, TokenStore, Verification } from './token-store.ts';
import { isRepeated, requestHeader } from '../http/headers.ts';

export interface AuthenticateOptions {
  /** Opaque tokens issued by the token CLI. */
  readonly store?: TokenStore;
  /**
   * How long a store verification is reused, in ms. Default 500: a revocation or refusal made by
   * another process is honoured within half a second, and a busy client costs one lookup per window.
   * 0 checks the store on every request.
   */
  readonly cacheMs?: number;
  /** JWTs issued elsewhere. */
  readonly jwt?: JwtOptions;
  /** The realm named in WWW-Authenticate. Default `api`. */
  readonly realm?: string;
}

/**
 * Recent verifications by Authorization header, kept for a short window. Bounded: past 10,000
 * headers it starts afresh rather than grow, so a flood of random tokens cannot exhaust memory.
 */
class VerificationCache {
  readonly #ttlMs: number;
  readonly #entries = new Map<string, { verification: Verification; until: number }>();

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  get(header: string): Verification | undefined {
    const entry = this.#entries.get(header);
    if (entry === undefined) return undefined;
    if (entry.until > Date.now()) return entry.verification;
    this.#entries.delete(header);
    return undefined;
  }

  set(header: string, verification: Verification): Verification {
    if (this.#ttlMs <= 0) return verification;
    if (this.#entries.size >= 10_000) this.#entries.clear();
    // Never reused past the credential's own expiry: a token valid for 1 s is refused after 1 s.
    const until = Math.min(
      Date.now() + this.#ttlMs,
      verification.ok ? (verification.expiresAtMs ?? Infinity) : Infinity,
    );
    this.#entries.set(header, { verification, until });
    return verification;
  }
}

/** `Bearer <token>`, the token in token68 syntax (RFC 6750). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** What authentication left on ctx.state: the principal, or the error to answer with. */
interface AuthState {
  auth?: Principal;
  authFailure?: ApiError;
}

/** The authenticated principal of a request, if any. */
export function authOf(ctx: Context): Principal | undefined {
  return (ctx.state as AuthState).auth;
}

/**
 * Reads the bearer credential (Authorization header only) and records who it speaks for, or why
 * it fails, without answering yet: call limits can then count an unauthenticated request per
 * address before `requireAuth()` refuses it. Use `bearerAuth()` for both in one.
 */
export function authenticate({ store, jwt, realm = 'api', cacheMs = 500 }: AuthenticateOptions): Middleware {
  if (store === undefined && jwt === undefined)
    throw new Error('authenticate needs a token store, JWT options, or both');
  const verifyJwt = jwt === undefined ? undefined : jwtVerifier(jwt);
  const challenge = `Bearer realm="${realm}"`;
  const invalid = () =>
    unauthorized('invalid_token', 'the bearer token is not valid', {
      headers: { 'WWW-Authenticate': `${challenge}, error="invalid_token"` },
    });

  const cache = new VerificationCache(cacheMs);
  // A SQLite store verifies synchronously; a PostgreSQL store and a JWT answer with a promise.
  const verifyHeader = (header: string): Verification | Promise<Verification> => {
    const match = BEARER.exec(header);
    if (match === null) return { ok: false, reason: 'invalid' };
    const token = match[1]!;
    if (verifyJwt !== undefined && looksLikeJwt(token)) return verifyJwt(token);
    if (store === undefined) return { ok: false, reason: 'invalid' };
    // Only store verifications are reused: a JWT carries its own expiry and is checked every time.
    const verification = store.verify(token);
    return verification instanceof Promise
      ? verification.then((settled) => cache.set(header, settled))
      : cache.set(header, verification);
  };
  const record = (state: AuthState, verification: Verification) => {
    if (verification.ok) state.auth = verification.principal;
    else if (verification.reason === 'expired')
      state.authFailure = forbidden('token_expired', 'the bearer token has expired; obtain a new one');
    else if (verification.reason === 'refused')
      state.authFailure = forbidden('client_refused', 'this client is refused by the server');
    else state.authFailure = invalid();
  };

  return function authenticateMiddleware(ctx: Context, next: Next) {
    const state = ctx.state as AuthState;
    const header = requestHeader(ctx, 'authorization').trim();
    if (header === '') {
      state.authFailure = unauthorized('missing_token', 'this call needs a bearer token in the Authorization header', {
        headers: { 'WWW-Authenticate': challenge },
      });
      return next();
    }
    // Node keeps the first of two Authorization headers; which credential was meant is unknowable.
    if (isRepeated(ctx, 'authorization'))
      throw badRequest('duplicate_header', 'send one Authorization header, not several', { field: 'Authorization' });
    // A client sends the same header on every call: a verification still fresh is found by the
    // header itself, before parsing it again.
    let verification: Verification | Promise<Verification>;
    try {
      verification = cache.get(header) ?? verifyHeader(header);
    } catch (error) {
      return unverified(state, error, next);
    }
    if (verification instanceof Promise) {
      return verification.then(
        (settled) => {
          record(state, settled);
          return next();
        },
        (error: unknown) => unverified(state, error, next),
      );
    }
    record(state, verification);
    return next();
  };
}

/**
 * A token that could not be looked up because the store is failing (unreachable, full...): the
 * request is not authenticated, and `requireAuth()` answers the store's 503 dependency_unavailable.
 * An open route (readiness) is served all the same, exactly as without a token. Any other error is
 * the server's own and is thrown.
 */
function unverified(state: AuthState, error: unknown, next: Next) {
  const fault = dependencyFaultError('store', error);
  if (fault === undefined) throw error;
  state.authFailure = fault;
  return next();
}

export interface RequireAuthOptions {
  /** Requests answered without a credential (a public docs page, say). Default: none. */
  readonly isPublic?: (ctx: Context) => boolean;
}

/**
 * Refuses a request that authentication did not accept: 401 (WWW-Authenticate: Bearer, with
 * error="invalid_token" for a bad credential), 403 token_expired, 403 client_refused.
 */
export function requireAuth({ isPublic }: RequireAuthOptions = {}): Middleware {
  return function requireAuthMiddleware(ctx: Context, next: Next) {
    const state = ctx.state as AuthState;
    if (state.auth === undefined && isPublic?.(ctx) !== true)
      throw state.authFailure ?? unauthorized('missing_token', 'this call needs a bearer token');
    return next();
  };
}

/**
 * Bearer authentication in one: `authenticate()` then `requireAuth()`.
 *
 * @example
 * const store = new SqliteTokenStore(openDatabase('data/app.db'));
 * app.use(errorHandler());
 * app.use(bearerAuth({ store }));
 * app.use((ctx) => { ctx.body = { client: authOf(ctx)?.client }; });
 */
export function bearerAuth(options: AuthenticateOptions): Middleware {
  return compose([authenticate(options), requireAuth()]);
}
