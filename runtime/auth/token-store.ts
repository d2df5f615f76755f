/** Who a valid credential speaks for: a client, and the user it acts for when the grant names one. */
export interface Principal {
  readonly client: string;
  readonly user?: string;
}

/** The outcome of checking a bearer token. Unknown and revoked are one outcome: never say which. */
export type Verification =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly reason: 'invalid' | 'expired' | 'refused' };

export interface IssueOptions {
  readonly client: string;
  readonly user?: string;
  /** Lifetime in seconds; no expiry when omitted. */
  readonly ttlSeconds?: number;
}

/**
 * Clients, grants (a client, optionally for a user) and tokens. Tokens are random and stored only as
 * hashes. The embedded store is SQLite; another store can implement the same interface.
 */
export interface TokenStore {
  /** Creates the client and grant as needed and returns a new token (the only time it is seen). */
  issue(options: IssueOptions): string;
  verify(token: string): Verification;
  /** True when a token was revoked (false when it was unknown or already revoked). */
  revoke(token: string): boolean;
  /** Revokes a grant and every token issued under it. */
  revokeGrant(client: string, user?: string): boolean;
  /** Refuses a client: every token of it is answered 403 client_refused. */
  refuseClient(client: string): void;
}
