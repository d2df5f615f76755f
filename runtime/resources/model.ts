import type { ZodType } from 'zod';
import type { TableSpec } from '../storage/index.ts';
import type { RowAccessModel } from './row-access.ts';

/** Field kinds as the runtime serves them (mirrors the DSL's kinds; the runtime imports nothing of the DSL). */
export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'time' | 'reference' | 'object' | 'array';

export interface FieldModel {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly unique: boolean;
  readonly filterable: boolean;
  /** Lists can be sorted by it (`sort=`). Absent means false. */
  readonly sortable?: boolean;
  readonly searchable: boolean;
  /** Validates a written value. */
  readonly schema: ZodType;
  /**
   * For references, and arrays of references (`kind: 'array'`, the items references too): the plural
   * name of the collection referred to.
   */
  readonly references?: string;
  /**
   * For references: what deleting the referenced row does to this one. Absent: the delete is refused
   * with 409 while this one refers to it. `cascade`: this row is deleted too; `set-null`: this
   * reference is emptied. Either in the delete's transaction, through this collection's own rules.
   */
  readonly onDelete?: 'cascade' | 'set-null';
  /** Set by the server (computed, or by a rule): a write that sends it answers 400 read_only_field. */
  readonly readOnly?: boolean;
  /** For arrays: each item's field (a scalar, an enum or a reference). */
  readonly items?: FieldModel;
  /** For arrays: no item may appear twice; for an array of references, checked again on the ids written URIs name. */
  readonly uniqueItems?: boolean;
  /** For objects: the nested fields. */
  readonly fields?: readonly FieldModel[];
  /** For enums: the values the (string) field takes; a filter on another one answers 400. */
  readonly values?: readonly string[];
  readonly description?: string;
  /**
   * What a create or a replace that leaves the field out stores (a required field with a default may
   * be left out, never sent as null); rows stored before the field existed hold it too (see ColumnSpec).
   */
  readonly default?: string | number | boolean;
  /**
   * For strings: the most characters (UTF-16 code units, as `String.length` counts) a write may
   * carry; a longer value is refused with 400 value_too_long before any other check of it.
   */
  readonly maxLength?: number;
}

/** A version's representation and its mapping to and from the stored fields. */
export interface VersionModel {
  readonly name: string;
  /** Every writable property of the representation (the identifier and created_at are added). */
  readonly fields: readonly FieldModel[];
  /** stored → representation; absent when the representation is the stored fields. */
  readonly read?: (stored: Record<string, unknown>) => Record<string, unknown>;
  /** representation → stored; absent when the representation is the stored fields. */
  readonly write?: (representation: Record<string, unknown>) => Record<string, unknown>;
  readonly deprecated?: { readonly since: string; readonly sunset: string; readonly successor: string };
}

/**
 * A rule's check as the runtime calls it: the DSL's WriteCheck or DeleteCheck, typed there by the
 * declaration's fields. It answers nothing, stored values to set, or a generator (runFlow drives it).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each declaration types its own argument
export type RuleCheck = (argument: any) => unknown;

/** A declaration's business rules, one check per write operation (resources/write-rules.ts runs them). */
export interface WriteRulesModel {
  readonly create?: RuleCheck;
  readonly replace?: RuleCheck;
  readonly update?: RuleCheck;
  readonly delete?: RuleCheck;
}

/** Read-only fields computed from the row as it will be stored, by field name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each declaration types its own row
export type ComputedFieldsModel = Readonly<Record<string, (row: any) => unknown>>;

export type OperationName = 'list' | 'read' | 'create' | 'replace' | 'update' | 'delete';
export type OperationState = 'served' | 'not-implemented' | 'absent';

export interface CollectionModel {
  readonly kind: 'collection';
  readonly name: string;
  readonly singular: string;
  /** `assignedBy` (default `'server'`): who names each resource; `'client'` names it in the path. */
  readonly identifier: {
    readonly name: string;
    readonly type: 'integer' | 'string';
    readonly assignedBy?: 'server' | 'client';
  };
  /** PUT to an identifier that does not exist yet creates the resource: 201 (default false: 404). */
  readonly createOnPut?: boolean;
  /** Writes done as jobs of the named queue: answered 202 with the job's Location. */
  readonly asynchronous?: {
    readonly queue: string;
    readonly operations: readonly ('create' | 'replace' | 'update' | 'delete')[];
  };
  /** The stored fields. */
  readonly fields: readonly FieldModel[];
  readonly versions: Readonly<Record<string, VersionModel>>;
  readonly operations: Readonly<Record<OperationName, OperationState>>;
  readonly paging: { readonly defaultLimit: number; readonly maxLimit: number };
  readonly table: TableSpec;
  readonly rules?: WriteRulesModel;
  readonly compute?: ComputedFieldsModel;
  /** What follows from each write, run after it in its transaction (the DSL's WriteEffects). */
  readonly effects?: WriteRulesModel;
  /** Which rows each caller may see and change (row-access.ts); absent: every row, at no cost. */
  readonly rows?: RowAccessModel;
  /**
   * The reference field naming the row each resource belongs to: the collection is also served below
   * that row (`/v1/pets/3/visits`, parent-scope.ts). Absent: at its own paths only.
   */
  readonly parent?: string;
  readonly description?: string;
}

export interface AggregateModel {
  readonly kind: 'aggregate';
  readonly name: string;
  /** The parent collection's plural name. */
  readonly parent: string;
  readonly fields: readonly FieldModel[];
  readonly versions: Readonly<Record<string, VersionModel>>;
  /** Keyed by the parent's identifier. */
  readonly table: TableSpec;
  readonly rules?: WriteRulesModel;
  readonly compute?: ComputedFieldsModel;
  /** What follows from each write, run after it in its transaction (the DSL's WriteEffects). */
  readonly effects?: WriteRulesModel;
  readonly description?: string;
}

/** A setting: a small JSON object per caller at /settings/{version}/{name}. */
export interface SettingModel {
  readonly kind: 'setting';
  readonly name: string;
  readonly fields: readonly FieldModel[];
  readonly versions: Readonly<Record<string, VersionModel>>;
  /** Checks on PUT (`replace`) and PATCH (`update`), the DSL's SettingRules (resources/write-rules.ts runs them). */
  readonly rules?: Pick<WriteRulesModel, 'replace' | 'update'>;
  readonly description?: string;
}

/** Every resource model of an API: what references, expansion and cascades look up. */
export interface Catalog {
  readonly collections: Readonly<Record<string, CollectionModel>>;
  readonly aggregates: readonly AggregateModel[];
}
