/**
 * What applying a migration runs, in order, in one transaction: statements, and checks that stop the
 * migration (rolling back what it did) when their query finds a row, with a message naming that row.
 */
export type MigrationStatement =
  | { readonly kind: 'run'; readonly sql: string }
  | { readonly kind: 'refuse-if-any'; readonly sql: string; readonly message: (row: { readonly key: unknown; readonly value: unknown }) => string };

export const run = (sql: string): MigrationStatement => ({ kind: 'run', sql });

/** Statements as `migrate --dry-run` prints them: SQL ending with `;`, a check introduced by a comment. */
export function printStatements(statements: readonly MigrationStatement[]): string {
  return statements
    .map((statement) => (statement.kind === 'run' ? `${statement.sql};` : `-- stops the migration, changing nothing, when this finds a row:\n${statement.sql};`))
    .join('\n');
}

/** A migration that stopped: which one and why, in one sentence (the start's `cannot start:` line). */
export class MigrationFailedError extends Error {
  override readonly name = 'MigrationFailedError';
}
