import type pg from 'pg';
import { conflict, searchTimedOut } from '../../errors/index.ts';
import { DEFAULT_SEARCH_TIMEOUT_MS, type SearchOptions } from '../search-budget.ts';
import type { Maybe } from '../maybe.ts';
import { conditionSql, type ConditionSql, type RowCondition } from '../row-condition.ts';
import { quoteName } from '../quote-name.ts';
import type { ResourceStore, StoreReader, StoreTransaction } from '../resource-store.ts';
import { fromSqlValues, insertPlan, selectedColumns } from '../row-values.ts';
import { searchWords } from '../search-words.ts';
import type { ListQuery, ListResult, Row, TableSpec } from '../table-spec.ts';
import { isoNow } from '../time.ts';
import { migrateTables, SEARCH_COLUMN, sortExpression, underMigrationLock } from './migrate.ts';
import { keyDescending, RANGE_SQL, rangeAndOrderKey } from '../list-shape.ts';
import {
  inPostgresTransaction,
  query,
  queryArrays,
  queryFirstArray,
  underStatementTimeout,
  type Queryable,
} from './queries.ts';

/**
 * A value as a query parameter: undefined as NULL; an array or a plain object (a json column's) as its
 * JSON text, which jsonb reads; pg formats the rest.
 */
const param = (value: unknown) => (value === undefined ? null : isJson(value) ? JSON.stringify(value) : value);

const isJson = (value: unknown) =>
  Array.isArray(value) ||
  (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype);

/** A row condition (row access) as PostgreSQL's SQL, its parameters numbered from `first`. */
const visibleSql = (table: TableSpec, visible: RowCondition, first: number) =>
  conditionSql(
    table,
    visible,
    (index) => `$${index}`,
    first,
    (_kind, value) => param(value),
  );

/**
 * Free text as a tsquery that cannot be a syntax error: each word a prefix term, all of which must
 * match (the same words SQLite's FTS5 query is made of).
 */
export function toTsQuery(text: string): string {
  return searchWords(text)
    .map((word) => `'${word.toLowerCase()}':*`)
    .join(' & ');
}

/** Reads on the pool, or, inside a transaction, on its client with the rows it finds locked until the end. */
class PostgresReader implements StoreReader {
  protected readonly db: Queryable;
  readonly #lockFound: boolean;
  /** The search budget; undefined inside a transaction, whose statements run on its own client as they come. */
  readonly #searchTimeoutMs: number | undefined;

  constructor(db: Queryable, lockFound: boolean, searchTimeoutMs?: number) {
    this.db = db;
    this.#lockFound = lockFound;
    this.#searchTimeoutMs = searchTimeoutMs;
  }

  /** One promise, settled with the row: the read of a GET one (BENCHMARKS.md counts what each promise costs). */
  find(table: TableSpec, key: unknown, visible?: RowCondition): Promise<Row | undefined> {
    const lock = this.#lockFound;
    if (visible !== undefined) {
      const condition = visibleSql(table, visible, 2);
      const sql = `SELECT ${columnList(table)} FROM ${quoteName(table.table)} WHERE ${quoteName(table.key.name)} = $1 AND ${condition.sql}${lock ? ' FOR UPDATE' : ''}`;
      return queryFirstArray(this.db, sql, [key, ...condition.values], (values) => fromSqlValues(table, values));
    }
    const sql = statementOf(
      table,
      lock ? 'find for update' : 'find',
      () =>
        `SELECT ${columnList(table)} FROM ${quoteName(table.table)} WHERE ${quoteName(table.key.name)} = $1${lock ? ' FOR UPDATE' : ''}`,
    );
    return queryFirstArray(this.db, sql, [key], (values) => fromSqlValues(table, values));
  }

  list(table: TableSpec, listQuery: ListQuery): Promise<ListResult> {
    const conditions = Object.keys(listQuery.where);
    if (conditions.length > 1) conditions.sort();
    const filters = conditions.map((c) => param(listQuery.where[c]));
    if (listQuery.ranges !== undefined) for (const range of listQuery.ranges) filters.push(param(range.value));
    // jsonb containment: the column holds an array with this item (`["pollen"]`).
    if (listQuery.contains !== undefined)
      for (const item of listQuery.contains) filters.push(JSON.stringify([item.value]));
    // Row access: the caller's condition after the filters and ranges, its parameters numbered after theirs.
    const visible =
      listQuery.visible === undefined ? undefined : visibleSql(table, listQuery.visible, filters.length + 1);
    const values = visible === undefined ? filters : [...filters, ...visible.values];
    // The texts for this list's shape, made once per table: the common list (no filter) builds no SQL.
    const { from, page } =
      visible === undefined
        ? listStatements(table, conditions, listQuery)
        : listSql(table, conditions, listQuery, visible);
    // One round trip and one promise: the window count is taken over every matching row, before LIMIT.
    return queryArrays(this.db, page, [...values, listQuery.limit, listQuery.offset], (rows): Maybe<ListResult> => {
      const counted = rows[0]?.at(-1);
      const result = (total: number) => ({ rows: rows.map((raw) => fromSqlValues(table, raw)), total });
      if (counted !== undefined) return result(Number(counted));
      // A page past the end has no row to carry the count: ask for it alone.
      if (listQuery.offset === 0) return result(0);
      return query<{ total: number }>(this.db, `SELECT count(*) AS total ${from}`, values).then(({ rows: [counted] }) =>
        result(counted!.total),
      );
    });
  }

  async countWhere(table: TableSpec, column: string, value: unknown): Promise<number> {
    const { rows } = await query<{ total: number }>(
      this.db,
      `SELECT count(*) AS total FROM ${quoteName(table.table)} WHERE ${quoteName(column)} = $1`,
      [param(value)],
    );
    return rows[0]!.total;
  }

  /**
   * The keys of the rows matching `text`, best first, and how many match. Outside a transaction the
   * two statements run on one pooled client under `statement_timeout` (the search budget): past it
   * PostgreSQL cancels the statement and the request answers 503 search_timeout.
   */
  async search(
    table: TableSpec,
    text: string,
    limit: number,
    offset: number,
    visible?: RowCondition,
  ): Promise<{ keys: unknown[]; total: number }> {
    const tsquery = toTsQuery(text);
    if (tsquery === '') return { keys: [], total: 0 };
    const name = quoteName(table.table);
    const document = quoteName(SEARCH_COLUMN);
    const key = quoteName(table.key.name);
    // Row access: only the rows the caller may see are counted and returned ($4 on in the page, $2 on in the count).
    const pageCondition = visible === undefined ? undefined : visibleSql(table, visible, 4);
    const countCondition = visible === undefined ? undefined : visibleSql(table, visible, 2);
    const run = async (db: Queryable) => {
      const found = await queryArrays(
        db,
        `SELECT ${key} FROM ${name} WHERE ${document} @@ to_tsquery('simple', $1)${pageCondition === undefined ? '' : ` AND ${pageCondition.sql}`} ORDER BY ts_rank(${document}, to_tsquery('simple', $1)) DESC, ${key} LIMIT $2 OFFSET $3`,
        [tsquery, limit, offset, ...(pageCondition?.values ?? [])],
      );
      const counted = await query<{ total: number }>(
        db,
        `SELECT count(*) AS total FROM ${name} WHERE ${document} @@ to_tsquery('simple', $1)${countCondition === undefined ? '' : ` AND ${countCondition.sql}`}`,
        [tsquery, ...(countCondition?.values ?? [])],
      );
      return { keys: found.map((values) => values[0]), total: counted.rows[0]!.total };
    };
    const budgetMs = this.#searchTimeoutMs;
    if (budgetMs === undefined) return run(this.db);
    try {
      return await underStatementTimeout(this.db as pg.Pool, budgetMs, run);
    } catch (error) {
      // 57014 query_canceled: the statement ran past statement_timeout.
      if ((error as { code?: string }).code === '57014') throw searchTimedOut(budgetMs);
      throw error;
    }
  }
}

/** Writes on one transaction's client. A duplicate that slipped past the unique check of a racing writer is the same 409. */
class PostgresTransaction extends PostgresReader implements StoreTransaction {
  insert(table: TableSpec, values: Row): Promise<Row> {
    const { row, columns } = insertPlan(table, values);
    // The columns an INSERT names depend on the table alone.
    const sql = statementOf(
      table,
      'insert',
      () =>
        `INSERT INTO ${quoteName(table.table)} (${columns.map(quoteName).join(', ')}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING ${columnList(table)}`,
    );
    const params = columns.map((name) => param(row[name]));
    return duplicateAsConflict(
      table,
      queryArrays(this.db, sql, params, ([inserted]) => fromSqlValues(table, inserted!)),
    );
  }

  update(table: TableSpec, key: unknown, values: Row): Promise<Row> {
    const columns = table.columns.map((column) => column.name).filter((name) => name in values);
    const assignments = [
      ...columns.map((name, index) => `${quoteName(name)} = $${index + 1}`),
      `updated_at = $${columns.length + 1}`,
    ].join(', ');
    const sql = `UPDATE ${quoteName(table.table)} SET ${assignments} WHERE ${quoteName(table.key.name)} = $${columns.length + 2} RETURNING ${columnList(table)}`;
    const params = [...columns.map((name) => param(values[name])), isoNow(), key];
    return duplicateAsConflict(
      table,
      queryArrays(this.db, sql, params, ([updated]) => fromSqlValues(table, updated!)),
    );
  }

  async remove(table: TableSpec, key: unknown): Promise<void> {
    await query(this.db, `DELETE FROM ${quoteName(table.table)} WHERE ${quoteName(table.key.name)} = $1`, [key]);
  }

  /** The search column is recomputed by PostgreSQL on every write; rebuilding means rebuilding its index. */
  async reindex(table: TableSpec): Promise<number> {
    if (!table.columns.some((column) => column.searchable)) return 0;
    await this.db.query(`REINDEX INDEX ${quoteName(`${table.table}__search`)}`);
    const { rows } = await query<{ total: number }>(this.db, `SELECT count(*) AS total FROM ${quoteName(table.table)}`);
    return rows[0]!.total;
  }
}

/**
 * The PostgreSQL store: the same tables, columns and behaviour as the SQLite store, through a pg
 * connection pool. Reads outside a transaction take any pooled connection; a transaction takes one
 * connection for its length, locks every row it finds (SELECT ... FOR UPDATE) so that a
 * read-check-write cannot interleave with another instance's, and is run again on a deadlock.
 */
export class PostgresResourceStore extends PostgresReader implements ResourceStore {
  readonly #pool: pg.Pool;
  /** Single statements outside a transaction, each on whichever pooled connection is free. */
  readonly #alone: PostgresTransaction;
  #closed: Promise<void> | undefined;

  constructor(pool: pg.Pool, { search = {} }: { readonly search?: Pick<SearchOptions, 'timeoutMs'> } = {}) {
    super(pool, false, search.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS);
    this.#pool = pool;
    this.#alone = new PostgresTransaction(pool, false);
  }

  migrate(tables: readonly TableSpec[]): Promise<void> {
    return underMigrationLock(this.#pool, (client) => migrateTables(client, tables));
  }

  transaction<T>(work: (tx: StoreTransaction) => Maybe<T>): Promise<T> {
    return inPostgresTransaction(this.#pool, async (client) => {
      const tx = new PostgresTransaction(client, true);
      connections.set(tx, client);
      return work(tx);
    });
  }

  /** One INSERT on any pooled connection, committed by itself: no BEGIN and COMMIT round trips. */
  insertAlone(table: TableSpec, values: Row): Promise<Row> {
    return this.#alone.insert(table, values);
  }

  /** Ends the pool once; closing again is a no-op, as with SQLite. */
  close(): Promise<void> {
    this.#closed ??= this.#pool.end();
    return this.#closed;
  }
}

/** Each open transaction's client, for other tables written in the same transaction (a job a rule queues). */
const connections = new WeakMap<StoreTransaction, pg.PoolClient>();

/** The client a PostgreSQL store's transaction runs on; undefined for any other transaction. */
export function connectionOf(tx: StoreTransaction): pg.PoolClient | undefined {
  return connections.get(tx);
}

const statements = new WeakMap<TableSpec, Map<string, string>>();

/**
 * The text of one of a table's fixed statements, made once per table (a transaction's reader is new
 * for each transaction): no SQL built, and the same string each time, which the statement-name cache
 * then finds without hashing a fresh one.
 */
function statementOf(table: TableSpec, kind: string, make: () => string): string {
  let texts = statements.get(table);
  if (texts === undefined) statements.set(table, (texts = new Map()));
  let text = texts.get(kind);
  if (text === undefined) texts.set(kind, (text = make()));
  return text;
}

function columnList(table: TableSpec): string {
  return statementOf(table, 'columns', () => selectedColumns(table).map(quoteName).join(', '));
}

/** listSql() kept per table and list shape (without a row condition, whose text is the caller's). */
function listStatements(
  table: TableSpec,
  conditions: readonly string[],
  query: ListQuery,
): { from: string; page: string } {
  const key = `list ${conditions.join(' ')}${rangeAndOrderKey(query)}`;
  const from = statementOf(table, `${key} from`, () => listSql(table, conditions, query, undefined).from);
  const page = statementOf(table, key, () => listSql(table, conditions, query, undefined).page);
  return { from, page };
}

/**
 * A list's page statement (with its window count) and its FROM clause: the equality conditions, the
 * ranges, the contained items and row access's condition (its parameters numbered after theirs), in the list's order.
 */
function listSql(
  table: TableSpec,
  conditions: readonly string[],
  query: ListQuery,
  visible: ConditionSql | undefined,
): { from: string; page: string } {
  const { ranges = [], order = [], contains = [] } = query;
  const before = conditions.length + ranges.length;
  const tests = [
    ...conditions.map((c, index) => `${quoteName(c)} = $${index + 1}`),
    ...ranges.map(
      (range, index) =>
        `${sortExpression(table, range.column)} ${RANGE_SQL[range.operator]} $${conditions.length + index + 1}`,
    ),
    // Containment, as the column's GIN index (jsonb_path_ops) serves it.
    ...contains.map((item, index) => `${quoteName(item.column)} @> $${before + index + 1}::jsonb`),
    ...(visible === undefined ? [] : [visible.sql]),
  ];
  const where = `FROM ${quoteName(table.table)}${tests.length === 0 ? '' : ` WHERE ${tests.join(' AND ')}`}`;
  // Containment goes through a fenced subquery (OFFSET 0): otherwise the planner walks the key index in
  // order testing every row, costed as if the LIMIT stopped it early, though count(*) OVER () reads every
  // matching row anyway; fenced, the GIN index finds them and only they are sorted (a test reads the plan).
  const from = contains.length === 0 ? where : `FROM (SELECT * ${where} OFFSET 0) AS ${quoteName(table.table)}`;
  const parameters = before + contains.length + (visible?.values.length ?? 0);
  // NULL sorts as the smallest value, as on SQLite: first ascending, last descending (the sort indexes are built so).
  const orderBy = [
    ...order.map(
      (sortKey) =>
        `${sortExpression(table, sortKey.column)} ${sortKey.descending ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`,
    ),
    `${sortExpression(table, table.key.name)}${keyDescending(query) ? ' DESC' : ''}`,
  ].join(', ');
  return {
    from,
    page: `SELECT ${columnList(table)}, count(*) OVER () ${from} ORDER BY ${orderBy} LIMIT $${parameters + 1} OFFSET $${parameters + 2}`,
  };
}

function duplicateAsConflict<T>(table: TableSpec, pending: Promise<T>): Promise<T> {
  return pending.catch((error: unknown) => {
    const { code, constraint } = error as { code?: string; constraint?: string };
    const column =
      code === '23505' ? table.columns.find((c) => constraint === `${table.table}__${c.name}`.slice(0, 63)) : undefined;
    if (column === undefined) throw error;
    throw conflict('duplicate_value', `another of ${table.table} already has this ${column.name}`, {
      field: column.name,
      resource: table.table,
    });
  });
}
