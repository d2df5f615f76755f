import type { z } from 'zod';
import type { FieldDeclaration, FieldKind, Fields } from './fields.ts';
import type { Caller } from './service-tools.ts';

/**
 * A generator function's result, as the runtime drives it: each data access is `yield*`ed
 * (`const room = yield* data.of(rooms).read(id)`). The same rule then runs synchronously on SQLite,
 * whose transactions cannot wait, and through promises on PostgreSQL.
 */
export type Flow<T> = Generator<unknown, T, unknown>;

/**
 * The stored value of a field: what its schema outputs, except for references. A reference's schema
 * takes what a client may write (the target's URI or its id), but it stores the target's identifier:
 * a number for an integer identifier, a string for a string one, as generated/collection-rows.ts
 * types it (see CollectionIdentifiers); a list of references stores a list of them.
 */
export type FieldValue<D> = D extends { readonly kind: 'reference'; readonly references: infer T extends string }
  ? IdentifierOf<T>
  : D extends {
        readonly kind: 'array';
        readonly items: { readonly kind: 'reference'; readonly references: infer T extends string };
      }
    ? IdentifierOf<T>[]
    : D extends { readonly schema: infer S extends z.ZodType }
      ? z.output<S>
      : unknown;

/** Stored fields by name; null or absent when unset. */
export type StoredValues<F extends Fields> = { -readonly [K in keyof F]?: FieldValue<F[K]> | null };

/** A stored row as rules see it: its fields, and the times the server keeps. */
export type StoredRow<F extends Fields> = { readonly [K in keyof F]?: FieldValue<F[K]> | null } & {
  readonly created_at?: string;
  readonly updated_at?: string;
};

/** A row read through the data access: its fields, its identifier (under its own name) and its times. */
export type ReadRow<F extends Fields> = StoredRow<F> & Readonly<Record<string, unknown>>;

/** What a create, replace or update check is given. */
export interface WriteCheckInput<F extends Fields> {
  readonly operation: 'create' | 'replace' | 'update';
  /** The version the write was sent to (`v1`). */
  readonly version: string;
  /** The body as the version represents the resource, validated (a shaped version's nested objects as sent). */
  readonly input: Readonly<Record<string, unknown>>;
  /** The stored fields this write sets: all of them on create and replace, those sent on update (null clears). */
  readonly stored: StoredRow<F>;
  /** The row as it will be stored: the current row with this write applied. Cross-field rules read this. */
  readonly next: StoredRow<F>;
  /** The row before the write (replace and update); undefined on create. */
  readonly current: StoredRow<F> | undefined;
  /** The resource's identifier; undefined on a create where the server assigns it. */
  readonly key: string | number | undefined;
  /** Who is calling; undefined for work the server does on its own (a job queued by a rule). */
  readonly caller: Caller | undefined;
  /** The collections, read and written inside this write's transaction, and the job queues. */
  readonly data: DataAccess;
}

/** What a delete check is given. */
export interface DeleteCheckInput<F extends Fields> {
  readonly operation: 'delete';
  /** The row about to be deleted. */
  readonly current: StoredRow<F>;
  readonly key: string | number;
  readonly caller: Caller | undefined;
  readonly data: DataAccess;
}

/**
 * What a write check answers: nothing to let the write go on as it is, or stored values to set as
 * well (a read-only field the rule sets). Throw a refusal (badRequest, forbidden, conflict,
 * unprocessable, refuse) to stop it: nothing of the write, nor of its effects, is kept.
 */
export type WriteCheckResult<F extends Fields> = void | StoredValues<F>;

/** A check on a create, replace or update: a plain function, or a generator function when it uses `data`. */
export type WriteCheck<F extends Fields> = (
  write: WriteCheckInput<F>,
) => WriteCheckResult<F> | Flow<WriteCheckResult<F>>;

/** A check on a delete. */
export type DeleteCheck<F extends Fields> = (write: DeleteCheckInput<F>) => void | Flow<void>;

/**
 * Business rules on writes, one check per operation, each run inside the write's transaction after
 * the body has passed the fields' own validation. Share one function between operations by naming it
 * twice: `rules: { create: checkTimes, replace: checkTimes }`.
 */
export interface WriteRules<F extends Fields> {
  readonly create?: WriteCheck<F>;
  readonly replace?: WriteCheck<F>;
  readonly update?: WriteCheck<F>;
  readonly delete?: DeleteCheck<F>;
}

/** What an effect is given: the row as the write left it (as it was, for a delete), inside the write's transaction. */
export interface EffectInput<F extends Fields> {
  readonly operation: 'create' | 'replace' | 'update' | 'delete';
  /** The stored row after the write, its identifier and times included; for a delete, the row deleted. */
  readonly row: ReadRow<F>;
  readonly key: string | number;
  readonly caller: Caller | undefined;
  readonly data: DataAccess;
}

/** An effect of a write: a plain function, or a generator function that yield*s each data access. */
export type Effect<F extends Fields> = (write: EffectInput<F>) => void | Flow<void>;

/**
 * What follows from a write, one per operation, run after the row is written and inside the same
 * transaction: rows of other collections created, changed or deleted, and jobs queued, all kept or
 * all dropped with the write (a refusal thrown here drops the write too).
 */
export interface WriteEffects<F extends Fields> {
  readonly create?: Effect<F>;
  readonly replace?: Effect<F>;
  readonly update?: Effect<F>;
  readonly delete?: Effect<F>;
}

/**
 * Read-only fields computed from the row as it will be stored, at every create, replace and update
 * (`name_key: (row) => row.name?.toLowerCase()`). Each named field must be declared `readOnly`.
 */
export type ComputedFields<F extends Fields> = {
  readonly [K in keyof F]?: (row: StoredRow<F>) => FieldValue<F[K]> | null | undefined;
};

/** A list through the data access: equality filters on stored fields, and a page. */
export interface DataListQuery<F extends Fields> {
  readonly where?: StoredValues<F>;
  /** Default 50. */
  readonly limit?: number;
  readonly offset?: number;
}

/**
 * One collection as rules, own operations and jobs touch it: every write validated as the
 * collection's own endpoints validate it (the stored fields' checks, references, unique values) and
 * checked by the collection's own rules, inside the transaction of the write that caused it.
 */
export interface CollectionAccess<F extends Fields> {
  // A key of a collection with an integer identifier is a whole number from 1, or the text of a path
  // segment (`params.memo_id`) checked as the generated routes check theirs: anything else (`'01'`,
  // `Number('abc')`) is a 400 invalid_identifier naming the identifier.
  /** The row, or undefined when there is none (or the caller may not see it). */
  read(key: string | number): Flow<ReadRow<F> | undefined>;
  /** The row, or a 404 exactly as GET of it answers (a row the caller may not see included). */
  get(key: string | number): Flow<ReadRow<F>>;
  list(query?: DataListQuery<F>): Flow<{ readonly rows: readonly ReadRow<F>[]; readonly total: number }>;
  /** Creates a row from stored values (required fields included); answers it with its identifier. */
  create(values: StoredValues<F>): Flow<ReadRow<F>>;
  /** Changes the given stored fields of an existing row (404 when there is none); null clears one. PATCH's write. */
  update(key: string | number, values: StoredValues<F>): Flow<ReadRow<F>>;
  /** Replaces an existing row's stored fields (404 when there is none): those left out are cleared. PUT's write. */
  replace(key: string | number, values: StoredValues<F>): Flow<ReadRow<F>>;
  /** Deletes a row (404 when there is none; 409 while another resource refers to it). */
  delete(key: string | number): Flow<void>;
}

/** A collection's declaration as data access takes it (what `collection()` returns, imported from its file). */
export interface DeclaredCollection<F extends Fields> {
  readonly kind: 'collection';
  readonly name: string;
  readonly fields: F;
}

/**
 * Whose rows the data access touches. `'caller'` (the default): the rows the caller may see, as its
 * own requests would (a row it may not see reads as none, is not listed or counted, and is 404 to
 * update or delete; a write must leave a row it may change). `'all'`: every row, as the server itself;
 * for a rule that must know of rows the caller may not see (a room already taken by someone else).
 * Work the server does for no caller (a job queued through a queue's PUT) touches every row.
 */
export interface DataAccessOptions {
  readonly rows?: 'caller' | 'all';
}

/**
 * The project's collections by name, each as the values its stored fields hold
 * (`{ reservations: { guest_name: string; room: string; ... } }`). Empty here: `npm run generate`
 * fills it in (generated/collection-rows.ts augments this interface), so `data.of('reservations')` is
 * typed by that collection's fields, and a name no definition declares is a type error.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface -- filled in by declaration merging
export interface CollectionRows {}

/**
 * The type of each collection's identifier, by its name (`{ pets: number; products: string }`). Empty
 * here: `npm run generate` fills it in beside CollectionRows (generated/collection-rows.ts), so that a
 * reference field is typed by its target's identifier wherever rules see it (`next`, `current`,
 * `stored`, an effect's row, a list's `where`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface -- filled in by declaration merging
export interface CollectionIdentifiers {}

/** The identifier of the collection named `N`: either kind before the first generation, or for a name no definition declares. */
export type IdentifierOf<N extends string> = N extends keyof CollectionIdentifiers
  ? CollectionIdentifiers[N]
  : string | number;

/** A collection's name: one of CollectionRows once generated, any string before the first generation. */
export type CollectionName = [keyof CollectionRows] extends [never] ? string : Extract<keyof CollectionRows, string>;

/** A row's values as field declarations, as data access types them (each field's schema outputs its value). */
export type FieldsOfRow<Row> = { readonly [K in keyof Row]: FieldDeclaration<FieldKind, z.ZodType<Row[K]>> };

/** The fields of the collection named `N` (untyped before the first generation). */
export type FieldsNamed<N extends string> = N extends keyof CollectionRows ? FieldsOfRow<CollectionRows[N]> : Fields;

/** The data a rule may read and write, all inside the transaction of the write being checked. */
export interface DataAccess {
  /**
   * A collection by its declaration or by its name, typed by its fields either way (by name once
   * `npm run generate` has run: see CollectionRows); the caller's rows unless `{ rows: 'all' }`.
   */
  of<F extends Fields>(collection: DeclaredCollection<F>, options?: DataAccessOptions): CollectionAccess<F>;
  of<N extends CollectionName>(collection: N, options?: DataAccessOptions): CollectionAccess<FieldsNamed<N>>;
  /**
   * Queues a job of a job queue's declared type (its payload validated), kept or dropped with the
   * write: a job queued by a refused write never runs.
   */
  enqueue(queue: string, type: string, payload: Record<string, unknown>): Flow<{ readonly job_id: number }>;
}
