export { requireUserAgent } from './user-agent.ts';
export {
  rejectTokenInUrl,
  redactedUrl,
  redactedQuery,
  CREDENTIAL_PARAMETERS,
  type RejectTokenInUrlOptions,
} from './token-in-url.ts';
export type { IssueOptions, Principal, TokenStore, Verification } from './token-store.ts';
export { SqliteTokenStore } from './sqlite-token-store.ts';
export { PostgresTokenStore, TOKEN_TABLES } from './postgres-token-store.ts';
export { authenticate, requireAuth, bearerAuth, authOf, type AuthenticateOptions } from './bearer-auth.ts';
export { jwtVerifier, jwtScopes, looksLikeJwt, type JwtOptions } from './jwt-verifier.ts';
export { callerOf, hasScopes, type Caller } from './caller.ts';
export { scopeChecked } from './scope-checked.ts';
export { insufficientScope, isScopeToken, scopesOf, NO_SCOPES } from './scopes.ts';
export { jwtOptionsFromEnvironment } from './jwt-from-env.ts';
