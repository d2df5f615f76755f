import type { DatabaseSync, StatementSync } from 'node:sqlite';

/**
 * How many statements one cache keeps. The SQL of a list depends on the filters, sorts and fields a
 * request names, so the texts a client can cause are many; the ones a server repeats are few.
 */
export const MAX_CACHED_STATEMENTS = 500;

/**
 * Prepared statements of one connection by SQL text: each is parsed and planned once. With
 * `arrays`, rows come back as arrays of values in the order the SELECT names them. Bounded: past
 * MAX_CACHED_STATEMENTS texts it starts afresh rather than grow (a statement still in use stays
 * valid; SQLite finalises it once nothing holds it).
 */
export class StatementCache {
  readonly #db: DatabaseSync;
  readonly #arrays: boolean;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, { arrays = false }: { readonly arrays?: boolean } = {}) {
    this.#db = db;
    this.#arrays = arrays;
  }

  get(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      if (this.#arrays) statement.setReturnArrays(true);
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.clear();
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Statements kept now. */
  get size(): number {
    return this.#statements.size;
  }

  clear(): void {
    this.#statements.clear();
  }
}
