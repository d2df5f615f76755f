/**
 * The resolved model: every declaration with its defaults applied, in one place. Lint reads it,
 * route flattening reads it, every emitter reads it; nothing downstream re-derives a default.
 */

export type ResolvedFieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'time' | 'reference' | 'object' | 'array';

export interface ResolvedField {
  readonly name: string;
  readonly kind: ResolvedFieldKind;
  readonly required: boolean;
  readonly unique: boolean;
  readonly filterable: boolean;
  /** Lists can be sorted by it (`sort=`): indexed with the identifier. */
  readonly sortable: boolean;
  readonly searchable: boolean;
  /** Set by the server (computed or by a rule): refused in writes, readOnly in the OpenAPI documents. */
  readonly readOnly: boolean;
  /** For references, and arrays of references: the plural name of the collection referred to. */
  readonly references?: string;
  /** For references: what deleting the referenced row does to this one; absent means restrict. */
  readonly onDelete?: 'cascade' | 'set-null';
  readonly description?: string;
  readonly fields?: readonly ResolvedField[];
  /** For arrays: each item's field (its kind, checks and values). */
  readonly items?: ResolvedField;
  /** For arrays: no item may appear twice (an array of references: no row named twice). */
  readonly uniqueItems?: boolean;
  /** For enums: the values the field takes, in the declared order. */
  readonly values?: readonly string[];
  /** What a create or replace that leaves the field out stores, as the field's own schema reads it (`fr-fr` → `fr-FR`). */
  readonly default?: string | number | boolean;
  /** Why the declared default is not a value of the field (lint: invalid-default); absent when it is. */
  readonly invalidDefault?: string;
  /** The field's former name (renamedFrom): the next migration renames its column. */
  readonly renamedFrom?: string;
  /**
   * For strings: the most characters a write may carry (`max`: the declared maxLength, else the
   * default of STRING_LENGTHS), whether it was declared, and whether the column is indexed.
   */
  readonly stringLength?: { readonly max: number; readonly declared: boolean; readonly indexed: boolean };
  /** Property path from the definition's default export to this field's declaration. */
  readonly access: readonly string[];
}

export interface ResolvedVersion {
  readonly name: string;
  readonly fields: readonly ResolvedField[];
  /** The version declares its own shape with read/write mappings. */
  readonly shaped: boolean;
  readonly deprecated?: { readonly since: string; readonly sunset: string; readonly successor: string };
  /** Former names in this version: their GET paths answer 301 to the current ones. */
  readonly movedFrom: readonly string[];
  readonly access: readonly string[];
}

export type ResolvedOperation = 'list' | 'read' | 'create' | 'replace' | 'update' | 'delete';
export type ResolvedOperationState = 'served' | 'not-implemented' | 'absent';

/** The HTTP methods of the routes a declaration serves. */
export type ResolvedMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The scopes a caller needs, per method, as the declaration lists them (a method left out needs none). */
export type ResolvedScopes = Readonly<Partial<Record<ResolvedMethod, readonly string[]>>>;

interface ResolvedBase {
  /** Definition file relative to the root: `definitions/orders.ts`. */
  readonly source: string;
  readonly name: string;
  readonly versions: readonly ResolvedVersion[];
  /** The scopes its operations need, per method (declaration's `scopes`). */
  readonly scopes: ResolvedScopes;
  readonly description?: string;
}

export interface ResolvedCollection extends ResolvedBase, ResolvedRules {
  readonly kind: 'collection';
  readonly singular: string;
  /** Hand-written operations below one resource (`ownOperations`), by their index there. */
  readonly ownOperations: readonly ResolvedServiceOperation[];
  readonly identifier: {
    readonly name: string;
    readonly type: 'integer' | 'string';
    readonly assignedBy: 'server' | 'client';
  };
  /** PUT to an unknown identifier creates (201). */
  readonly createOnPut: boolean;
  /** Writes done as jobs of a queue (202). */
  readonly asynchronous:
    | { readonly queue: string; readonly operations: readonly ('create' | 'replace' | 'update' | 'delete')[] }
    | undefined;
  readonly fields: readonly ResolvedField[];
  readonly operations: Readonly<Record<ResolvedOperation, ResolvedOperationState>>;
  readonly paging: { readonly defaultLimit: number; readonly maxLimit: number };
  /** The collection's former name (renamedFrom): the next migration renames its table. */
  readonly renamedFrom?: string;
  /** Row access (the definition's `rows`): absent when every caller sees and changes every row. */
  readonly rows?: ResolvedRowAccess;
  /**
   * The reference field naming the row each resource belongs to (the declaration's `parent`): the
   * collection is also served below that row. `collection` is what the field refers to (absent when
   * the field is not a reference: lint's parent-field).
   */
  readonly parent?: { readonly field: string; readonly collection?: string };
}

/** What the generator needs of a collection's row rules: that there are some, and every place they name a field or a scope. */
export interface ResolvedRowAccess {
  /** A `see` rule is declared: some callers do not see some rows. */
  readonly hidesRows: boolean;
  /** Each field a rule compares, what it is compared with, and the property path to the rule's `field` (lint places findings there). */
  readonly fields: readonly { readonly name: string; readonly operand: unknown; readonly access: readonly string[] }[];
  /** Each scope a rule names, with the property path to it. */
  readonly scopes: readonly { readonly scope: string; readonly access: readonly string[] }[];
}

export interface ResolvedAggregate extends ResolvedBase, ResolvedRules {
  readonly kind: 'aggregate';
  readonly parent: string;
  readonly fields: readonly ResolvedField[];
}

/** The business rules a collection or aggregate declares (their functions stay in the definition). */
export interface ResolvedRules {
  /** The write operations that have a check. */
  readonly ruledOperations: readonly ('create' | 'replace' | 'update' | 'delete')[];
  /** The write operations that have an effect. */
  readonly effectOperations: readonly ('create' | 'replace' | 'update' | 'delete')[];
  /** The fields the declaration computes (`compute`), in declaration order. */
  readonly computed: readonly string[];
  /** Collections each check or effect names by string (`data.of('rooms')`), read from its source text, for lint. */
  readonly namedCollections: readonly {
    readonly at: 'rules' | 'effects';
    readonly operation: 'create' | 'replace' | 'update' | 'delete';
    readonly name: string;
  }[];
}

export interface ResolvedServiceOperation {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below the service path: '' or `:name`. */
  readonly path: string;
  readonly index: number;
  readonly description?: string;
  /** Served without a token and outside every call limit (health checks). */
  readonly open?: true;
  /** The scopes this operation needs besides the service's own for its method (the operation's `scopes`). */
  readonly scopes?: readonly string[];
  /** The collection whose resource a hand-written operation answers (its `answers`). */
  readonly answers?: string;
  /** A hand-written operation written as a generator function: it works on data, in one transaction. */
  readonly onData?: true;
}

export interface ResolvedService extends ResolvedBase {
  readonly kind: 'service';
  readonly handler: 'custom' | 'search' | 'job-queue' | 'openapi' | 'health';
  readonly operations: readonly ResolvedServiceOperation[];
  readonly jobTypes: readonly string[];
  /** Job type → the collection a finished job of that type produced a resource of (303 to it). */
  readonly jobProduces: Readonly<Record<string, string>>;
}

export interface ResolvedSetting extends ResolvedBase {
  readonly kind: 'setting';
  readonly fields: readonly ResolvedField[];
  /** The writes that have a check (`rules`): PUT's `replace`, PATCH's `update`. */
  readonly ruledOperations: readonly ('replace' | 'update')[];
}

export type ResolvedDeclaration = ResolvedCollection | ResolvedAggregate | ResolvedService | ResolvedSetting;

export interface ResolvedModel {
  readonly collections: readonly ResolvedCollection[];
  readonly aggregates: readonly ResolvedAggregate[];
  readonly services: readonly ResolvedService[];
  readonly settings: readonly ResolvedSetting[];
  /** Every version any declaration serves, sorted. */
  readonly versions: readonly string[];
}
