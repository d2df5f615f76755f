import type { Fields, LowercaseFieldNames } from './fields.ts';
import type { ScopesByMethod } from './scopes.ts';
import type { ComputedFields, WriteEffects, WriteRules } from './rules.ts';
import type { VersionDeclarations } from './versions.ts';

/**
 * An aggregate: a resource that belongs to exactly one row of its parent collection and is reached
 * only through it, at /{version}/{parent}/{parent_id}/{name} (GET and PUT). It has no top-level path.
 */
export interface AggregateDeclaration<
  Name extends string = string,
  Parent extends string = string,
  F extends Fields = Fields,
  V extends VersionDeclarations = VersionDeclarations,
> {
  readonly kind: 'aggregate';
  /** The path segment under the parent (plural, as every path segment naming resources). */
  readonly name: Name;
  /** The plural name of the parent collection. */
  readonly parent: Parent;
  readonly fields: F;
  readonly versions: V;
  /** The scopes a caller needs, per method (GET, PUT): see ScopesByMethod. */
  readonly scopes?: ScopesByMethod;
  /** Checks on writes (PUT is `replace`), run in the write's transaction (docs/business-rules.md). */
  readonly rules?: WriteRules<F>;
  /** Read-only fields computed from the aggregate at every write (docs/business-rules.md). */
  readonly compute?: ComputedFields<F>;
  /** What follows from each write, in its transaction: other collections' rows, jobs (docs/business-rules.md). */
  readonly effects?: WriteEffects<F>;
  readonly description?: string;
}

/**
 * Declares an aggregate reachable only through its parent.
 *
 * @example
 * export default aggregate({ name: 'profiles', parent: 'users', fields: { full_name: field.string() }, versions: { v1: {} } });
 */
export function aggregate<
  const Name extends string,
  const Parent extends string,
  const F extends Fields,
  const V extends VersionDeclarations,
>(
  declaration: Omit<AggregateDeclaration<Name, Parent, F, V>, 'kind'> & { readonly fields: LowercaseFieldNames<F> },
): AggregateDeclaration<Name, Parent, F, V> {
  return { kind: 'aggregate', ...declaration };
}
