import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ListQuery, ListResult, Row, TableSpec } from '../table-spec.ts';
import { fromSqlValues, selectedColumns } from '../row-values.ts';
import { toSqlValue } from './column-values.ts';
import { plainParameter } from './plain-parameter.ts';
import { ListStatements } from './list-statements.ts';
import { conditionSql, type RowCondition } from '../row-condition.ts';
import { quoteName } from './sql-names.ts';
import { StatementCache } from './statement-cache.ts';

/**
 * The resource store's reads on one connection (find, list, countWhere), each statement prepared
 * once for it: the store's own connection reads inside its transactions, and a TurnSnapshot's
 * connection outside them.
 */
export class RowReads {
  readonly #db: DatabaseSync;
  readonly #lists: ListStatements;
  #finds = new WeakMap<TableSpec, StatementSync>();
  readonly #statements: StatementCache;
  /** Statements whose rows come back as arrays (reads under a row condition). */
  readonly #arrays: StatementCache;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#lists = new ListStatements(db);
    this.#statements = new StatementCache(db);
    this.#arrays = new StatementCache(db, { arrays: true });
  }

  find(table: TableSpec, key: unknown, visible?: RowCondition): Row | undefined {
    if (visible !== undefined) return this.#findVisible(table, key, visible);
    // The hottest statement: prepared once per table, found without building its SQL again.
    let statement = this.#finds.get(table);
    if (statement === undefined) {
      // Named columns, not *, so each value's position is fixed whatever columns the file has.
      const columns = selectedColumns(table).map(quoteName).join(', ');
      statement = this.#db.prepare(
        `SELECT ${columns} FROM ${quoteName(table.table)} WHERE ${quoteName(table.key.name)} = ?`,
      );
      statement.setReturnArrays(true);
      this.#finds.set(table, statement);
    }
    const values = statement.get(toSqlValue(table.key.type, key)) as unknown as unknown[] | undefined;
    return values === undefined ? undefined : fromSqlValues(table, values);
  }

  /** find() under a row condition: the key and the condition in one statement, prepared once per condition's text. */
  #findVisible(table: TableSpec, key: unknown, visible: RowCondition): Row | undefined {
    const condition = conditionSql(table, visible, plainParameter, 1, toSqlValue);
    const columns = selectedColumns(table).map(quoteName).join(', ');
    const statement = this.#arrays.get(
      `SELECT ${columns} FROM ${quoteName(table.table)} WHERE ${quoteName(table.key.name)} = ? AND ${condition.sql}`,
    );
    const values = statement.get(toSqlValue(table.key.type, key), ...(condition.values as never[])) as unknown as
      unknown[] | undefined;
    return values === undefined ? undefined : fromSqlValues(table, values);
  }

  list(table: TableSpec, query: ListQuery): ListResult {
    return this.#lists.list(table, query);
  }

  countWhere(table: TableSpec, column: string, value: unknown): number {
    const kind = table.columns.find((c) => c.name === column)?.kind ?? 'string';
    const { total } = this.#statements
      .get(`SELECT count(*) AS total FROM ${quoteName(table.table)} WHERE ${quoteName(column)} = ?`)
      .get(toSqlValue(kind, value)) as { total: number };
    return Number(total);
  }

  /** Lets go of every prepared statement (before the connection closes). */
  clear(): void {
    this.#lists.clear();
    this.#finds = new WeakMap();
    this.#statements.clear();
    this.#arrays.clear();
  }
}
