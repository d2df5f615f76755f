/** The storable kinds of column, one per field kind that is stored flat; `json` holds an array or a nested object (JSON text on SQLite, jsonb on PostgreSQL). */
export type ColumnKind = 'string' | 'integer' | 'number' | 'boolean' | 'time' | 'reference' | 'json';

export interface ColumnSpec {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly unique: boolean;
  /** Indexed for equality filters. */
  readonly indexed: boolean;
  /**
   * Lists can be sorted by it: indexed together with the key (`(column, key)`), which serves the
   * sort with the key as tie-breaker, range conditions on the column and equality filters alike.
   * Absent means false.
   */
  readonly sortable?: boolean;
  /** Indexed in the table's full-text index for search. */
  readonly searchable: boolean;
  /** The field's default: the column is added with it, so rows stored before it existed hold it. */
  readonly default?: string | number | boolean;
}

/** What decides a column's index (see each engine's createIndexSql). */
export type IndexedColumn = Pick<ColumnSpec, 'name' | 'unique' | 'indexed' | 'sortable'>;

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

/** A comparison of a column with a value: greater than, at least, less than, at most. */
export type RangeOperator = 'gt' | 'gte' | 'lt' | 'lte';

export interface RangeCondition {
  readonly column: string;
  readonly operator: RangeOperator;
  readonly value: unknown;
}

/**
 * An array column (kind json) holding an item equal to the value: `?allergies.contains=pollen`.
 * PostgreSQL answers it with jsonb containment (`@>`, served by the column's GIN index); SQLite reads
 * the row's items (json_each), unindexed.
 */
export interface ContainsCondition {
  readonly column: string;
  readonly value: string | number | boolean;
}

/** One key of a list's order. Null sorts as the smallest value on both engines. */
export interface SortKey {
  readonly column: string;
  readonly descending: boolean;
}

export interface ListQuery {
  /** Equality conditions, all of which must hold. */
  readonly where: Readonly<Record<string, unknown>>;
  /** The rows the caller may see (row access): only they are listed and counted. Absent: every row. */
  readonly visible?: RowCondition;
  /** Comparisons, all of which must hold (besides `where`). Absent: none. */
  readonly ranges?: readonly RangeCondition[];
  /** Items an array column must hold, all of them (besides `where` and `ranges`). Absent: none. */
  readonly contains?: readonly ContainsCondition[];
  /**
   * The order of the rows; the key always ends it, as the tie-breaker, in the direction of the last
   * sort key. Absent or empty: by the key, ascending.
   */
  readonly order?: readonly SortKey[];
  readonly limit: number;
  readonly offset: number;
}

export interface ListResult {
  readonly rows: Row[];
  /** How many rows match `where`, whatever the page. */
  readonly total: number;
}
