/**
 * How long one search may take, in ms, when nothing else is said (SEARCH_TIMEOUT_MS). A search is
 * bounded in words (MAX_SEARCH_TERMS) but not in the rows each word matches: on a large table the
 * broadest allowed search could still take seconds. Past the budget the query is stopped (SQLite) or
 * cancelled (PostgreSQL's statement_timeout) and the request answers 503 `search_timeout`.
 */
export const DEFAULT_SEARCH_TIMEOUT_MS = 2000;

/**
 * Threads that run SQLite searches beside the event loop, per process, when nothing else is said
 * (SEARCH_THREADS). Searches beyond it wait for a thread, within their own budget.
 */
export const DEFAULT_SEARCH_THREADS = 1;

/** How a store bounds its searches. */
export interface SearchOptions {
  /** The time budget of one search (wait for a thread included), ms. Default DEFAULT_SEARCH_TIMEOUT_MS. */
  readonly timeoutMs?: number;
  /**
   * SQLite: the threads that run searches on connections of their own (0: on the event loop, under
   * the same budget). Ignored for `:memory:` databases, which no other connection can open: their
   * searches run on the event loop. Default DEFAULT_SEARCH_THREADS.
   */
  readonly threads?: number;
}
