import type { Fields } from './fields.ts';

/** A stored row as the mapping functions see it: field name to value, absent when unset. */
export type StoredRecord = Record<string, unknown>;

/**
 * A representation that differs from the stored model (accounts v2 moves state and title into
 * `profile`). `fields` is the whole representation; `read` maps stored → representation and `write`
 * maps a (possibly partial) representation → stored fields. Both must be inverse of each other.
 */
export interface VersionShape<F extends Fields = Fields> {
  readonly fields: F;
  readonly read: (stored: StoredRecord) => Record<string, unknown>;
  readonly write: (representation: Record<string, unknown>) => StoredRecord;
}

export interface VersionDeclaration<F extends Fields = Fields> {
  /** The representation of this version; absent means the stored fields as they are. */
  readonly shape?: VersionShape<F>;
  /** Marks the version deprecated (ISO 8601 dates): responses carry Deprecation, Sunset and a Link to the successor. */
  readonly deprecated?: { readonly since: string; readonly sunset: string; readonly successor: string };
  /**
   * Names this collection, service or setting was served under before in this version (`purchases`
   * for a collection now named `orders`): a GET at the old path answers 301 with Location and a link
   * body to the same path under the current name; other methods there answer 405 (Allow: GET).
   */
  readonly movedFrom?: readonly string[];
}

/** Version name (`v1`, `v2`...) to its declaration. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each version keeps its own field types
export type VersionDeclarations = Readonly<Record<string, VersionDeclaration<any>>>;

/** Declares a version shape with its mapping; an identity helper that gives the functions their types. */
export function shape<const F extends Fields>(declaration: VersionShape<F>): VersionShape<F> {
  return declaration;
}
