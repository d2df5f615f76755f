import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Maybe } from '../maybe.ts';
import type { ResourceStore, StoreTransaction } from '../resource-store.ts';
import type { ListQuery, ListResult, Row, TableSpec } from '../table-spec.ts';
import { isoNow } from '../time.ts';
import { searchWords } from '../search-words.ts';
import { fromSqlRow, toSqlValue } from './column-values.ts';
import { plainParameter } from './plain-parameter.ts';
import { columnKind } from '../row-values.ts';
import { migrateTables } from './migrate.ts';
import { inTransaction } from './open-database.ts';
import { quoteName } from './sql-names.ts';
import { searchIndexOf } from './search-index.ts';
import { StatementCache } from './statement-cache.ts';
import { RowReads } from './row-reads.ts';
import { TurnSnapshot } from './turn-snapshot.ts';
import { InsertStatements } from './insert-statements.ts';
import { FtsSearcher, PastDeadline, type FtsAnswer, type FtsQuery } from './fts-search.ts';
import { SearchThreads, SearchTimedOut } from './search-threads.ts';
import { GroupCommit } from './group-commit.ts';
import { DEFAULT_SEARCH_THREADS, DEFAULT_SEARCH_TIMEOUT_MS, type SearchOptions } from '../search-budget.ts';
import { searchTimedOut } from '../../errors/index.ts';
import { conditionSql, type RowCondition } from '../row-condition.ts';

export interface SqliteStoreOptions {
  /**
   * The database file, when the database is one: searches then run in threads with connections of
   * their own (search.threads). Without it (`:memory:`) they run on the event loop.
   */
  readonly file?: string;
  readonly search?: SearchOptions;
}

/**
 * The embedded store: node:sqlite, one table per collection or aggregate, a FTS5 index beside each
 * table with searchable columns, kept in step in the same transaction as every write. node:sqlite
 * is synchronous, so a transaction's work cannot interleave with another request of this process;
 * BEGIN IMMEDIATE keeps other processes out for its length. The transactions of one event-loop turn
 * commit together (group-commit.ts). On a file, the reads made while handling the requests that one
 * wakeup of the event loop handed over share one read transaction on a read-only connection of their
 * own (turn-snapshot.ts), which ends before each of the store's write transactions.
 */
export class SqliteResourceStore implements ResourceStore {
  readonly #db: DatabaseSync;
  readonly #statements: StatementCache;
  readonly #ownReads: RowReads;
  /** The reads of requests that have just arrived, one read transaction per event-loop turn (turn-snapshot.ts); a file's only. */
  readonly #snapshot: { readonly turn: TurnSnapshot; readonly reads: RowReads } | undefined;
  readonly #inserts: InsertStatements;
  readonly #group: GroupCommit;
  #depth = 0;
  /** How many handlings of a just-arrived request are running (handleArrival()): reads share the turn's snapshot only then. */
  #arriving = 0;
  readonly #searchBudgetMs: number;
  readonly #searchThreads: SearchThreads | undefined;
  #inlineSearcher: FtsSearcher | undefined;

  constructor(db: DatabaseSync, { file, search = {} }: SqliteStoreOptions = {}) {
    this.#db = db;
    this.#statements = new StatementCache(db);
    this.#ownReads = new RowReads(db);
    this.#inserts = new InsertStatements(db);
    // Before each write transaction the turn's snapshot ends, so the reads after it see the write.
    this.#group = new GroupCommit(db, { beforeBegin: () => this.#snapshot?.turn.end() });
    this.#searchBudgetMs = search.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
    const threads = search.threads ?? DEFAULT_SEARCH_THREADS;
    this.#searchThreads = file === undefined || threads === 0 ? undefined : new SearchThreads(file, threads);
    if (file !== undefined) {
      const turn = new TurnSnapshot(file);
      this.#snapshot = { turn, reads: new RowReads(turn.connection) };
    }
  }

  migrate(tables: readonly TableSpec[]): void {
    this.#snapshot?.turn.end();
    inTransaction(this.#db, () => migrateTables(this.#db, tables));
    // The search threads open their connections now, not in the first search's budget.
    if (tables.some((table) => searchIndexOf(table) !== undefined)) this.#searchThreads?.start();
  }

  /**
   * Runs `work` in a transaction of the group committed at the end of this event-loop turn
   * (group-commit.ts): its result once that COMMIT has returned. Inside a transaction's work it runs
   * at once, as part of it.
   */
  transaction<T>(work: (tx: StoreTransaction) => Maybe<T>): Maybe<T> {
    if (this.#depth > 0) return finishedAtOnce(work(this));
    return this.#group.run(() => {
      this.#depth += 1;
      try {
        return finishedAtOnce(work(this));
      } finally {
        this.#depth -= 1;
      }
    });
  }

  close(): void | Promise<void> {
    // Transactions queued in this turn commit before the connection goes.
    if (this.#db.isOpen) this.#group.flush();
    const threads = this.#searchThreads?.close();
    this.#statements.clear();
    this.#ownReads.clear();
    this.#inserts.clear();
    this.#snapshot?.reads.clear();
    this.#snapshot?.turn.close();
    if (this.#db.isOpen) this.#db.close();
    return threads;
  }

  /**
   * Runs `handle(a, b)`, the synchronous part of handling a request that has just arrived (what a
   * server's request listener calls it with), with this store's reads allowed to share the turn's
   * snapshot (turn-snapshot.ts). The arguments are passed through so the caller needs no closure.
   */
  handleArrival<A, B, T>(handle: (a: A, b: B) => T, a: A, b: B): T {
    this.#arriving += 1;
    try {
      return handle(a, b);
    } finally {
      this.#arriving -= 1;
    }
  }

  find(table: TableSpec, key: unknown, visible?: RowCondition): Row | undefined {
    return this.#reads().find(table, key, visible);
  }

  list(table: TableSpec, query: ListQuery): ListResult {
    return this.#reads().list(table, query);
  }

  countWhere(table: TableSpec, column: string, value: unknown): number {
    return this.#reads().countWhere(table, column, value);
  }

  /**
   * The keys of the rows matching `text`, best first, within the search budget: in a search thread
   * when the database is a file (the event loop serves other requests meanwhile), else here. Past
   * the budget: 503 search_timeout. Inside a transaction it runs here, on the transaction's snapshot.
   */
  search(
    table: TableSpec,
    text: string,
    limit: number,
    offset: number,
    visible?: RowCondition,
  ): Maybe<{ keys: unknown[]; total: number }> {
    const match = toFtsQuery(text);
    if (match === '') return { keys: [], total: 0 };
    const index = searchIndexOf(table);
    if (index === undefined) throw new Error(`${table.table} has no searchable column`);
    const condition = visible === undefined ? undefined : conditionSql(table, visible, plainParameter, 1, toSqlValue);
    const query: FtsQuery = {
      fts: index.name,
      key: index.keyColumn,
      match,
      limit,
      offset,
      ...(condition === undefined
        ? {}
        : {
            visible: {
              table: quoteName(table.table),
              keyColumn: quoteName(table.key.name),
              sql: condition.sql,
              values: condition.values,
            },
          }),
    };
    const deadline = Date.now() + this.#searchBudgetMs;
    if (this.#searchThreads !== undefined && this.#depth === 0) {
      return this.#searchThreads.run(query, deadline).catch((error: unknown) => {
        throw error instanceof SearchTimedOut ? searchTimedOut(this.#searchBudgetMs) : error;
      });
    }
    return this.#searchHere(query, deadline);
  }

  #searchHere(query: FtsQuery, deadline: number): FtsAnswer {
    this.#inlineSearcher ??= new FtsSearcher(this.#db);
    try {
      return this.#inlineSearcher.run(query, deadline);
    } catch (error) {
      throw error instanceof PastDeadline ? searchTimedOut(this.#searchBudgetMs) : error;
    }
  }

  insert(table: TableSpec, values: Row): Row {
    return this.#inserts.insert(table, values);
  }

  update(table: TableSpec, key: unknown, values: Row): Row {
    const columns = table.columns.map((column) => column.name).filter((name) => name in values);
    const assignments = [...columns.map((name) => `${quoteName(name)} = ?`), 'updated_at = ?'].join(', ');
    this.#prepare(`UPDATE ${quoteName(table.table)} SET ${assignments} WHERE ${quoteName(table.key.name)} = ?`).run(
      ...columns.map((name) => toSqlValue(columnKind(table, name), values[name])),
      isoNow(),
      toSqlValue(table.key.type, key),
    );
    const row = this.find(table, key) as Row;
    this.#indexForSearch(table, key, row, true);
    return row;
  }

  remove(table: TableSpec, key: unknown): void {
    this.#prepare(`DELETE FROM ${quoteName(table.table)} WHERE ${quoteName(table.key.name)} = ?`).run(
      toSqlValue(table.key.type, key),
    );
    const index = searchIndexOf(table);
    if (index !== undefined) this.#prepare(index.remove).run(toSqlValue(table.key.type, key));
  }

  reindex(table: TableSpec): number {
    const index = searchIndexOf(table);
    if (index === undefined) return 0;
    this.#db.exec(`DELETE FROM ${index.name}`);
    let indexed = 0;
    for (const raw of this.#prepare(`SELECT * FROM ${quoteName(table.table)}`).iterate()) {
      const row = fromSqlRow(table, raw);
      this.#indexForSearch(table, row[table.key.name], row, false);
      indexed += 1;
    }
    return indexed;
  }

  #indexForSearch(table: TableSpec, key: unknown, row: Row, replace: boolean): void {
    const index = searchIndexOf(table);
    if (index === undefined) return;
    if (replace) this.#prepare(index.remove).run(toSqlValue(table.key.type, key));
    this.#inserts.index(table, key, row);
  }

  /**
   * Where a read goes: inside a transaction, the store's own connection (the transaction's writes and
   * locks); while a request that has just arrived is handled, the turn's snapshot, when the database
   * is a file; otherwise the store's own connection, in a read transaction of its own.
   */
  #reads(): RowReads {
    if (this.#depth > 0 || this.#snapshot === undefined || this.#arriving === 0) return this.#ownReads;
    this.#snapshot.turn.enter();
    return this.#snapshot.reads;
  }

  #prepare(sql: string): StatementSync {
    return this.#statements.get(sql);
  }
}

/** SQLite's work answers at once; a promise would outlive the transaction it belongs to. */
function finishedAtOnce<T>(result: Maybe<T>): T {
  if (result instanceof Promise) {
    result.catch(() => undefined);
    throw new TypeError('a SQLite transaction must finish synchronously: its work returned a promise');
  }
  return result;
}

/**
 * Turns free text into an FTS5 query that cannot be a syntax error: each word becomes a quoted
 * prefix term, all of which must match.
 */
export function toFtsQuery(text: string): string {
  return searchWords(text)
    .map((word) => `"${word}"*`)
    .join(' ');
}
