import type { FtsAnswer, FtsQuery } from './fts-search.ts';

/** What a search thread is given when it starts. */
export interface SearchThreadData {
  /** The database file; the thread opens it read-only (WAL lets it read beside the writer). */
  readonly path: string;
  readonly busyTimeoutMs: number;
}

/** One search, from the event loop to a search thread. `deadline`: epoch ms. */
export interface SearchRequest {
  readonly id: number;
  readonly query: FtsQuery;
  readonly deadline: number;
}

/** A search thread's answer: the keys and total, past the deadline, or any other failure. */
export type SearchReply =
  | ({ readonly id: number; readonly outcome: 'found' } & FtsAnswer)
  | { readonly id: number; readonly outcome: 'timed-out' }
  | { readonly id: number; readonly outcome: 'failed'; readonly message: string };
