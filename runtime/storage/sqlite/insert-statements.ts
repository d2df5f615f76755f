import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ColumnKind, Row, TableSpec } from '../table-spec.ts';
import { columnKind, fromSqlValues, insertPlan, selectedColumns } from '../row-values.ts';
import { toSqlValue } from './column-values.ts';
import { quoteName } from './sql-names.ts';
import { searchIndexOf } from './search-index.ts';

/** A table's INSERT, prepared once: the columns it binds, each with its kind, in order. */
interface InsertPlan {
  readonly columns: readonly string[];
  readonly kinds: readonly ColumnKind[];
  /** INSERT … RETURNING the columns a find reads: the stored row comes back from the write itself. */
  readonly insert: StatementSync;
  /** The row's entry in the search index; undefined when no column is searchable. */
  readonly index: { readonly statement: StatementSync; readonly columns: readonly string[] } | undefined;
}

/**
 * The statements that add a row to a table and to its search index, prepared once per table and
 * found without building SQL, the row read back with RETURNING rather than by a second statement.
 */
export class InsertStatements {
  readonly #db: DatabaseSync;
  #plans = new WeakMap<TableSpec, InsertPlan>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Inserts the row (timestamps and a generated key added) and indexes it for search; the row as stored. */
  insert(table: TableSpec, values: Row): Row {
    const plan = this.#planFor(table);
    const { row } = insertPlan(table, values);
    const stored = plan.insert.get(
      ...plan.columns.map((name, index) => toSqlValue(plan.kinds[index]!, row[name])),
    ) as unknown as unknown[];
    const inserted = fromSqlValues(table, stored);
    this.#index(plan, table, inserted[table.key.name], inserted);
    return inserted;
  }

  /** Adds a row's entry to the table's search index (none when no column is searchable). */
  index(table: TableSpec, key: unknown, row: Row): void {
    this.#index(this.#planFor(table), table, key, row);
  }

  #index(plan: InsertPlan, table: TableSpec, key: unknown, row: Row): void {
    if (plan.index === undefined) return;
    const { statement, columns } = plan.index;
    statement.run(
      toSqlValue(table.key.type, key),
      ...columns.map((name) => (row[name] === undefined ? null : String(row[name]))),
    );
  }

  clear(): void {
    this.#plans = new WeakMap();
  }

  #planFor(table: TableSpec): InsertPlan {
    let plan = this.#plans.get(table);
    if (plan === undefined) {
      plan = this.#prepare(table);
      this.#plans.set(table, plan);
    }
    return plan;
  }

  #prepare(table: TableSpec): InsertPlan {
    // insertPlan names the columns a table's INSERT binds; they depend on the table alone.
    const { columns } = insertPlan(table, {});
    const returning = selectedColumns(table).map(quoteName).join(', ');
    const insert = this.#db.prepare(
      `INSERT INTO ${quoteName(table.table)} (${columns.map(quoteName).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) RETURNING ${returning}`,
    );
    insert.setReturnArrays(true);
    const search = searchIndexOf(table);
    const index =
      search === undefined ? undefined : { statement: this.#db.prepare(search.insert), columns: search.columns };
    return { columns, kinds: columns.map((name) => columnKind(table, name)), insert, index };
  }
}
