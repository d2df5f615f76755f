import type { Fields, LowercaseFieldNames } from './fields.ts';
import type { RowAccess } from './row-rules.ts';
import type { ScopesByMethod } from './scopes.ts';
import type { ComputedFields, WriteEffects, WriteRules } from './rules.ts';
import type { ResourceOperation } from './resource-operation.ts';
import type { VersionDeclarations } from './versions.ts';

/** The operations a collection can serve. */
export type Operation = 'list' | 'read' | 'create' | 'replace' | 'update' | 'delete';

/** The operations that can be declared asynchronous (202): the writes. */
export type AsynchronousOperation = 'create' | 'replace' | 'update' | 'delete';

export interface CollectionDeclaration<
  Name extends string = string,
  F extends Fields = Fields,
  V extends VersionDeclarations = VersionDeclarations,
> {
  readonly kind: 'collection';
  /** The plural, lowercase path segment: `orders`, `trades`. */
  readonly name: Name;
  /**
   * The identifier: its property name (default `<singular>_id`), type (default integer) and who
   * assigns it (default `'server'`). With `assignedBy: 'client'` the client names each resource in
   * its path (`PUT /v1/products/blue-mug`); POST cannot create there (declare `create: false`).
   */
  readonly identifier?: {
    readonly name?: string;
    readonly type?: 'integer' | 'string';
    readonly assignedBy?: 'server' | 'client';
  };
  /**
   * PUT to an identifier that does not exist yet creates the resource (201 with the creation result)
   * instead of answering 404; PUT to an existing one still replaces it (200). Only where clients
   * assign identifiers (lint: put-create-identifier).
   */
  readonly createOnPut?: boolean;
  /**
   * Operations done in the background: the request is checked at once (400, 404, 412), then queued
   * as a job in the named job queue and answered 202 with Location of the job. GET of the job tells
   * its state, and 303 to the resource once a create, replace or update has succeeded.
   */
  readonly asynchronous?: { readonly queue: string; readonly operations: readonly AsynchronousOperation[] };
  /** The stored fields (the identifier and created_at are added by the server). */
  readonly fields: F;
  /**
   * The reference field naming the row each resource belongs to (`parent: 'pet'` on visits, whose
   * `pet` refers to pets): the collection is then also served below that row, at
   * `/{version}/{parents}/{parent_id}/{name}` (list, create with the parent taken from the path, and
   * read one), besides its own paths. Resources nest at most two levels: the parent collection may not
   * itself have a parent (lint: nesting-depth).
   */
  readonly parent?: keyof F & string;
  /** Every version this collection is served under, each with its representation. */
  readonly versions: V;
  /**
   * The operations served (default: all). An operation listed as `'not-implemented'` keeps its route
   * and answers 501, so callers can see it is planned.
   */
  readonly operations?: Partial<Record<Operation, boolean | 'not-implemented'>>;
  /** The scopes a caller needs, per method (GET covers list and read): see ScopesByMethod. */
  readonly scopes?: ScopesByMethod;
  /**
   * Which rows each caller may see and change, as rules over the stored fields and the caller
   * (`{ see: { any: [{ field: 'owner', equals: caller.user }, { scope: 'notes:admin' }] } }`).
   * Default: every caller sees and changes every row.
   */
  readonly rows?: RowAccess<keyof F & string>;
  /** List paging: the default and the maximum page size (defaults 50 and 500). */
  readonly paging?: { readonly defaultLimit?: number; readonly maxLimit?: number };
  /** Checks on writes, one per operation, run in the write's transaction (docs/business-rules.md). */
  readonly rules?: WriteRules<F>;
  /** Read-only fields computed from the row at every write (docs/business-rules.md). */
  readonly compute?: ComputedFields<F>;
  /** What follows from each write, in its transaction: other collections' rows, jobs (docs/business-rules.md). */
  readonly effects?: WriteEffects<F>;
  /**
   * Hand-written operations below one resource (`POST /v1/reservations/{id}/moves`), each with the
   * data access in one transaction (docs/own-operations.md).
   */
  readonly ownOperations?: readonly ResourceOperation<F>[];
  readonly description?: string;
  /**
   * The collection's former name: the next migration (`convapi migrate new`) renames its table, so
   * the stored rows move instead of being dropped. Former paths are `versions.{v}.movedFrom`.
   */
  readonly renamedFrom?: string;
}

/**
 * Declares a collection: a plural path served at /{version}/{name} and /{version}/{name}/{id}.
 *
 * @example
 * export default collection({
 *   name: 'orders',
 *   fields: { item: field.string({ required: true }) },
 *   versions: { v1: {}, v2: {} },
 * });
 */
export function collection<const Name extends string, const F extends Fields, const V extends VersionDeclarations>(
  declaration: Omit<CollectionDeclaration<Name, F, V>, 'kind'> & { readonly fields: LowercaseFieldNames<F> },
): CollectionDeclaration<Name, F, V> {
  return { kind: 'collection', ...declaration };
}
