import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ColumnKind, ListQuery, ListResult, TableSpec } from '../table-spec.ts';
import { columnKind, fromSqlValues, selectedColumns } from '../row-values.ts';
import { toSqlValue } from './column-values.ts';
import { plainParameter } from './plain-parameter.ts';
import { quoteName } from './sql-names.ts';
import { conditionSql, type ConditionSql } from '../row-condition.ts';
import { keyDescending, RANGE_SQL, rangeAndOrderKey } from '../list-shape.ts';
import { MAX_CACHED_STATEMENTS } from './statement-cache.ts';
import { PAGE_BOUNDS_SQL } from './page-bounds.ts';

/** The statements of one list shape: a table, the names of its equality conditions in order, its range conditions and its order. */
interface ListPlan {
  readonly conditions: readonly string[];
  /** The kind of each parameter of an equality condition or a range, in order (the contained items follow them). */
  readonly kinds: readonly ColumnKind[];
  /** The page, each row ending with the count of every matching row (computed once, on the first row). */
  readonly pageWithTotal: StatementSync;
  /** The count alone: for a page past the end, which has no row to carry it. */
  readonly count: StatementSync;
}

/**
 * Lists a table's rows a page at a time with the number of rows that match, in one statement: the
 * count is an uncorrelated subquery in the select list, which SQLite computes once, with the first
 * row, inside the page's own read transaction. Two statements cost a second read transaction (its
 * locks on the WAL index) and a second step; a page past the end, which returns no row, counts alone.
 * The statements are prepared once per table and set of conditions, found without building SQL.
 */
export class ListStatements {
  readonly #db: DatabaseSync;
  #plans = new WeakMap<TableSpec, Map<string, ListPlan>>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  list(table: TableSpec, query: ListQuery): ListResult {
    // Parameters: the equality filters, the ranges, the contained items, then row access's condition, each a plain `?`.
    const visible =
      query.visible === undefined ? undefined : conditionSql(table, query.visible, plainParameter, 1, toSqlValue);
    const plan = this.#planFor(table, query, visible);
    const filters = plan.conditions.map((name, index) => toSqlValue(plan.kinds[index]!, query.where[name]));
    if (query.ranges !== undefined)
      for (const range of query.ranges) filters.push(toSqlValue(plan.kinds[filters.length]!, range.value));
    // json_each gives a JSON true or false as 1 or 0, as the boolean columns store them.
    if (query.contains !== undefined)
      for (const item of query.contains)
        filters.push(typeof item.value === 'boolean' ? Number(item.value) : item.value);
    // The WHERE clause's values, in the order its plain `?` parameters appear.
    const where = (
      visible === undefined || visible.values.length === 0 ? filters : [...filters, ...visible.values]
    ) as never[];
    // Twice: once for the count's subquery, once for the page; then the page's bounds.
    const raws = plan.pageWithTotal.all(...where, ...where, query.limit, query.offset) as unknown as unknown[][];
    if (raws.length === 0) {
      const counted = plan.count.get(...where) as unknown as unknown[];
      return { rows: [], total: Number(counted[0]) };
    }
    const totalAt = raws[0]!.length - 1;
    const total = Number(raws[0]![totalAt]);
    return { rows: raws.map((raw) => fromSqlValues(table, raw)), total };
  }

  clear(): void {
    this.#plans = new WeakMap();
  }

  /** The list shapes of `table` whose statements are kept now. */
  plansOf(table: TableSpec): number {
    return this.#plans.get(table)?.size ?? 0;
  }

  #planFor(table: TableSpec, query: ListQuery, visible: ConditionSql | undefined): ListPlan {
    let plans = this.#plans.get(table);
    if (plans === undefined) {
      plans = new Map();
      this.#plans.set(table, plans);
    }
    const names = Object.keys(query.where);
    // Most lists have no condition and no order: their plan is found without sorting or joining anything.
    const shape = rangeAndOrderKey(query);
    const filters = names.length === 0 ? shape : `${names.sort().join('\0')}${shape}`;
    const key = visible === undefined ? filters : `${filters}\0\0${visible.sql}`;
    let plan = plans.get(key);
    if (plan === undefined) {
      plan = this.#prepare(table, names, query, visible?.sql);
      // Bounded as the statement cache is: a client can name many shapes (ranges and sorts in any
      // order), a server repeats few; past the bound the table's plans start afresh rather than grow.
      if (plans.size >= MAX_CACHED_STATEMENTS) plans.clear();
      plans.set(key, plan);
    }
    return plan;
  }

  #prepare(
    table: TableSpec,
    conditions: readonly string[],
    { ranges = [], order = [], contains = [] }: ListQuery,
    visible: string | undefined,
  ): ListPlan {
    // Plain parameters (plain-parameter.ts): the subquery and the page each bind every condition's value.
    const tests = [
      ...conditions.map((name) => `${quoteName(name)} = ?`),
      ...ranges.map((range) => `${quoteName(range.column)} ${RANGE_SQL[range.operator]} ?`),
      // No index serves it: each row's items are read (PostgreSQL's GIN index does, see docs/lists.md).
      ...contains.map((item) => `EXISTS (SELECT 1 FROM json_each(${quoteName(item.column)}) WHERE value = ?)`),
    ];
    const clauses = visible === undefined ? tests : [...tests, visible];
    const where = clauses.length === 0 ? '' : ` WHERE ${clauses.join(' AND ')}`;
    const from = `FROM ${quoteName(table.table)}${where}`;
    const columns = selectedColumns(table).map(quoteName).join(', ');
    // SQLite sorts NULL as the smallest value: first ascending, last descending (the order the store promises).
    const keyOrder = `${quoteName(table.key.name)}${keyDescending({ order }) ? ' DESC' : ''}`;
    const orderBy = [...order.map((key) => `${quoteName(key.column)}${key.descending ? ' DESC' : ''}`), keyOrder].join(
      ', ',
    );
    const pageWithTotal = this.#db.prepare(
      `SELECT ${columns}, (SELECT count(*) ${from}) ${from} ORDER BY ${orderBy} ${PAGE_BOUNDS_SQL}`,
    );
    const count = this.#db.prepare(`SELECT count(*) ${from}`);
    pageWithTotal.setReturnArrays(true);
    count.setReturnArrays(true);
    const kinds = [...conditions, ...ranges.map((range) => range.column)].map((name) => columnKind(table, name));
    return { conditions: [...conditions], kinds, pageWithTotal, count };
  }
}
