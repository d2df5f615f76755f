/**
 * What a service handler or a job can ask of the server it runs in. The runtime supplies it; the
 * definitions see only this interface, so they never depend on the runtime.
 */
export interface ServiceTools {
  /**
   * Rebuilds the full-text index of the named collections (all searchable ones when omitted). Answers
   * at once on SQLite and with a promise on PostgreSQL: return it, or await it.
   */
  reindex(collections?: readonly string[]): ReindexResult | Promise<ReindexResult>;
  /** The collections that declare searchable fields. */
  searchableCollections(): readonly string[];
  /**
   * Creates a resource of a collection from its representation in `version` (default: the
   * collection's latest), validated as POST validates it; answers its identifier. A job that
   * `produces` that collection returns it, and GET of the finished job answers 303 to the resource.
   */
  createResource(
    collection: string,
    representation: Record<string, unknown>,
    version?: string,
  ): { readonly identity: string | number } | Promise<{ readonly identity: string | number }>;
}

/** How many rows each reindexed collection has in its index. */
export interface ReindexResult {
  readonly indexed: Readonly<Record<string, number>>;
}

/**
 * Who is calling: the client named by the bearer token, the user it acts for, if any, and the scopes
 * the token grants (`token issue --scope`, a JWT's `scope` or `scp`; empty when none).
 */
export interface Caller {
  readonly client: string;
  readonly user?: string;
  readonly scopes: readonly string[];
}
