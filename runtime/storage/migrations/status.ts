/** A migration the database records as applied. */
export interface AppliedMigration {
  readonly id: string;
  /** ISO 8601 UTC. */
  readonly appliedAt: string;
}
