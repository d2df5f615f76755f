import type { DatabaseSync } from 'node:sqlite';

/**
 * How many statements `db` compiles from now on, read when called: SQLite asks the authorizer about
 * a statement each time it compiles one (a re-preparation included), and only then.
 */
export function compilations(db: DatabaseSync): () => number {
  let compiled = 0;
  db.setAuthorizer(() => {
    compiled += 1;
    return 0;
  });
  return () => compiled;
}
