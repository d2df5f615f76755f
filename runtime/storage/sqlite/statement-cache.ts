import type { DatabaseSync, StatementSync } from 'node:sqlite';

/**
 * Prepared statements of one connection by SQL text: each is parsed and planned once. With
 * `arrays`, rows come back as arrays of values in the order the SELECT names them.
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
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  clear(): void {
    this.#statements.clear();
  }
}
