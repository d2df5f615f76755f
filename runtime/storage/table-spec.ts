/** The storable kinds of column, one per field kind that is stored flat. */
export type ColumnKind = 'string' | 'integer' | 'number' | 'boolean' | 'time' | 'reference';

export interface ColumnSpec {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly unique: boolean;
  /** Indexed for equality filters. */
  readonly indexed: boolean;
  /** Indexed in the table's full-text index for search. */
  readonly searchable: boolean;
  /** The field's default: the column is added with it, so rows stored before it existed hold it. */
  readonly default?: string | number | boolean;
}

/** A table as the store sees it, derived from a collection or aggregate model. */
export interface TableSpec {
  readonly table: string;
  /**
   * The key column. `generated`: the server assigns it (integer: ascending, never reused; string:
   * random). Aggregates are keyed by their parent's identifier and are not generated.
   */
  readonly key: { readonly name: string; readonly type: 'integer' | 'string'; readonly generated: boolean };
  readonly columns: readonly ColumnSpec[];
}

/**
 * Which rows a read may reveal, as the store turns it into SQL: equality (or inequality) of a column
 * with a value, and `all` / `any` of such conditions. Made per caller by the resources layer from a
 * collection's row rule (row-access.ts there); row-condition.ts writes it as SQL, with the caller's values already in place. `{ any: [] }`
 * matches no row; a read without a condition sees every row.
 */
export type RowCondition =
  | { readonly column: string; readonly equals: unknown }
  | { readonly column: string; readonly notEquals: unknown }
  | { readonly all: readonly RowCondition[] }
  | { readonly any: readonly RowCondition[] };

/** A stored row: key, columns, and the server-set `created_at` / `updated_at` (ISO 8601 UTC). */
export type Row = Record<string, unknown>;

export interface ListQuery {
  /** Equality conditions, all of which must hold. */
  readonly where: Readonly<Record<string, unknown>>;
  /** The rows the caller may see (row access): only they are listed and counted. Absent: every row. */
  readonly visible?: RowCondition;
  readonly limit: number;
  readonly offset: number;
}

export interface ListResult {
  readonly rows: Row[];
  /** How many rows match `where`, whatever the page. */
  readonly total: number;
}
