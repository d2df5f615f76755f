import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { StatementCache } from './statement-cache.ts';
import { PAGE_BOUNDS_SQL } from './page-bounds.ts';

/** One full-text query on one FTS5 table, as the store hands it to whichever connection runs it. */
export interface FtsQuery {
  /** The FTS5 table's name, quoted. */
  readonly fts: string;
  /** Where an entry holds its row's key (search-index.ts). */
  readonly key: 'rowid' | 'key';
  /** The MATCH expression (toFtsQuery: quoted prefix terms, never a syntax error). */
  readonly match: string;
  readonly limit: number;
  readonly offset: number;
  /**
   * Row access: only entries whose row meets this condition (SQL over the table's columns, with plain
   * `?` parameters for its values, in order) count and are returned. Plain data, so it crosses to a search thread.
   */
  readonly visible?: {
    readonly table: string;
    readonly keyColumn: string;
    readonly sql: string;
    readonly values: readonly unknown[];
  };
}

export interface FtsAnswer {
  readonly keys: unknown[];
  readonly total: number;
}

/** The SQL function every matched row passes through; it throws once the query's deadline has passed. */
const BUDGET_FUNCTION = 'convapi_within_budget';

/** Thrown by the budget function, which aborts the statement it runs in. */
export class PastDeadline extends Error {
  constructor() {
    super('past the search deadline');
    this.name = 'PastDeadline';
  }
}

/**
 * Runs FTS5 searches on one connection, each under a deadline. node:sqlite has no progress handler
 * and no interrupt, so the deadline is checked by a SQL function that every matching row goes through
 * (in ORDER BY and in the count): past it, the function throws and SQLite aborts the statement. The
 * rank is wrapped in it on purpose: `ORDER BY rank` alone lets FTS5 rank every row inside one call,
 * which nothing can stop; ordering by the wrapped rank (then the key, as PostgreSQL does) gives the
 * same order with a check per row.
 */
export class FtsSearcher {
  readonly #statements: StatementCache;
  #deadline = Number.POSITIVE_INFINITY;

  constructor(db: DatabaseSync) {
    this.#statements = new StatementCache(db);
    db.function(BUDGET_FUNCTION, { deterministic: false, directOnly: true, varargs: true }, (value: unknown = 1) => {
      if (Date.now() > this.#deadline) throw new PastDeadline();
      return value as number;
    });
  }

  /** The query's keys (best first) and how many rows match; throws PastDeadline once `deadline` (epoch ms) passes. */
  run({ fts, key, match, limit, offset, visible }: FtsQuery, deadline: number): FtsAnswer {
    this.#deadline = deadline;
    try {
      if (visible !== undefined) return this.#runVisible({ fts, key, match, limit, offset, visible });
      const keys = this.#prepare(
        `SELECT ${key} AS key FROM ${fts} WHERE ${fts} MATCH ? ORDER BY ${BUDGET_FUNCTION}(rank), ${key} ${PAGE_BOUNDS_SQL}`,
      )
        .all(match, limit, offset)
        .map((row) => (typeof row.key === 'bigint' ? Number(row.key) : row.key));
      const { total } = this.#prepare(
        `SELECT count(*) AS total FROM ${fts} WHERE ${fts} MATCH ? AND ${BUDGET_FUNCTION}()`,
      ).get(match) as { total: number };
      return { keys, total: Number(total) };
    } finally {
      this.#deadline = Number.POSITIVE_INFINITY;
    }
  }

  /** run() under a row condition: an entry counts only when its row, found by key, meets it. */
  #runVisible({
    fts,
    key,
    match,
    limit,
    offset,
    visible,
  }: FtsQuery & { visible: NonNullable<FtsQuery['visible']> }): FtsAnswer {
    const rows = `${key} IN (SELECT ${visible.keyColumn} FROM ${visible.table} WHERE ${visible.sql})`;
    // Plain parameters, bound in the order they appear (plain-parameter.ts): the match, the condition's values, then the page's bounds.
    const matching = [match, ...visible.values] as never[];
    const keys = this.#prepare(
      `SELECT ${key} AS key FROM ${fts} WHERE ${fts} MATCH ? AND ${rows} ORDER BY ${BUDGET_FUNCTION}(rank), ${key} ${PAGE_BOUNDS_SQL}`,
    )
      .all(...matching, limit, offset)
      .map((row) => (typeof row.key === 'bigint' ? Number(row.key) : row.key));
    const { total } = this.#prepare(
      `SELECT count(*) AS total FROM ${fts} WHERE ${fts} MATCH ? AND ${BUDGET_FUNCTION}() AND ${rows}`,
    ).get(...matching) as { total: number };
    return { keys, total: Number(total) };
  }

  #prepare(sql: string): StatementSync {
    return this.#statements.get(sql);
  }
}
