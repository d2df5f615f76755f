import { createHash } from 'node:crypto';
import type pg from 'pg';

/** A pool or one checked-out client: both run queries. */
export type Queryable = pg.Pool | pg.PoolClient;

/**
 * How many SQL texts get a name, and so a prepared statement on every connection that runs them (kept
 * by PostgreSQL for the session's life, and by pg and this module in the process). The SQL of a list
 * depends on the filters, sorts and fields a request names, so the texts a client can cause are many;
 * the ones a server repeats are few, and are among the first it runs.
 */
export const MAX_NAMED_STATEMENTS = 500;

const names = new Map<string, string>();

/**
 * A statement's name for PostgreSQL's prepared-statement cache: the same SQL text gets the same name on
 * every connection, so each connection parses and plans it once. Past MAX_NAMED_STATEMENTS texts, a
 * new one gets none (undefined) and runs as an unnamed statement, parsed and planned on each run: what
 * a client can make the server prepare stays bounded on both sides of the connection.
 */
function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMED_STATEMENTS) return undefined;
    name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/** What pg's Query constructor is, read off the pool or client at hand: a SQLite server never loads pg. */
type QueryClass = typeof pg.Query;
type ResultClass = typeof pg.Result;
type QueryCallback = (error: Error | null, result: pg.QueryResult) => void;
type PreparedQueryClass = new (name: string, text: string, values: unknown[], arrays: boolean) => pg.Query;

const preparedClasses = new WeakMap<QueryClass, PreparedQueryClass | null>();

/** A column of a RowDescription, as pg hands it to Result.addFields. */
interface FieldDescription {
  readonly dataTypeID: number;
  readonly format?: string;
}

/** What a pg Result is made of, as far as the array rows below use it. */
interface ResultFields {
  fields: readonly FieldDescription[];
  _parsers: ((value: string) => unknown)[] | undefined;
  _types: TypeSource | undefined;
  addFields(descriptions: readonly FieldDescription[]): void;
}

interface TypeSource {
  getTypeParser(oid: number, format: string): (value: string) => unknown;
}

const parserCache = new WeakMap<
  TypeSource,
  Map<string, { readonly types: number[]; readonly parsers: ((value: string) => unknown)[] }>
>();

/**
 * The value parsers of a statement's columns for one connection's types, looked up once. A statement
 * whose columns changed type since (a migration) gets them looked up again: the cached ones serve only
 * the same type ids.
 */
function cachedParsers(
  types: TypeSource,
  statement: string,
  descriptions: readonly FieldDescription[],
): ((value: string) => unknown)[] | undefined {
  let statements = parserCache.get(types);
  if (statements === undefined) parserCache.set(types, (statements = new Map()));
  const cached = statements.get(statement);
  if (cached !== undefined && sameTypes(cached.types, descriptions)) return cached.parsers;
  const ids: number[] = [];
  const parsers: ((value: string) => unknown)[] = [];
  for (const { dataTypeID, format = 'text' } of descriptions) {
    // Binary columns are pg's own business (the store never asks for them).
    if (format !== 'text') return undefined;
    ids.push(dataTypeID);
    parsers.push(types.getTypeParser(dataTypeID, 'text'));
  }
  statements.set(statement, { types: ids, parsers });
  return parsers;
}

function sameTypes(ids: readonly number[], descriptions: readonly FieldDescription[]): boolean {
  if (ids.length !== descriptions.length) return false;
  for (let index = 0; index < ids.length; index += 1) {
    const description = descriptions[index]!;
    if (ids[index] !== description.dataTypeID || (description.format ?? 'text') !== 'text') return false;
  }
  return true;
}

/**
 * A named prepared statement as pg's own Query, made without the copy of its config that pg takes of
 * every config object (Object.defineProperties over its descriptors: about 2 µs a query, as much as
 * the rest of building the query; BENCHMARKS.md). Built from the statement's text, as pg builds a
 * query from a string, with the name, values and row mode set after. Those are fields of pg's Query
 * that are not its documented interface, so the class checks once that a query made this way has
 * them; on a pg where it does not, null, and queries go through pg's documented config object.
 */
function preparedQueryClass(Query: QueryClass): PreparedQueryClass | null {
  let found = preparedClasses.get(Query);
  if (found !== undefined) return found;
  // pg.Result is not on the Client; a Result is what every Query holds, so its class is read off one.
  const Result = (new Query('SELECT 1') as unknown as { _result?: { constructor: ResultClass } })._result?.constructor;
  if (Result === undefined) return null;
  /**
   * Rows as arrays, whose value parsers are looked up once per statement and connection: pg looks
   * each column's parser up again on every query (and builds an object row template arrays never
   * use), a few µs on a list's six columns.
   */
  class ArrayResult extends (Result as unknown as new (rowMode: string) => ResultFields) {
    statement = '';
    override addFields(descriptions: readonly FieldDescription[]): void {
      const parsers = this._types === undefined ? undefined : cachedParsers(this._types, this.statement, descriptions);
      if (parsers === undefined) return super.addFields(descriptions);
      this.fields = descriptions;
      this._parsers = parsers;
    }
  }
  class PreparedQuery extends Query {
    constructor(name: string, text: string, values: unknown[], arrays: boolean) {
      super(text);
      const fields = this as unknown as {
        name: string;
        values: unknown[];
        _rowMode?: string;
        _result: unknown;
        _results: unknown;
      };
      fields.name = name;
      fields.values = values;
      if (arrays) {
        fields._rowMode = 'array';
        const result = new ArrayResult('array');
        result.statement = name;
        // The result the rows are parsed into (_result) and the one handed to the callback (_results).
        fields._result = fields._results = result;
      }
    }
  }
  const probe = new PreparedQuery('probe', 'SELECT 1', [], true) as unknown as Record<string, unknown>;
  const result = probe._result as Partial<ResultFields> & { rowAsArray?: boolean };
  const usable =
    probe.text === 'SELECT 1' &&
    probe.name === 'probe' &&
    probe._rowMode === 'array' &&
    probe._results === result &&
    result.rowAsArray === true &&
    '_parsers' in result &&
    '_types' in result &&
    'fields' in result;
  found = usable ? PreparedQuery : null;
  preparedClasses.set(Query, found);
  return found;
}

/** pg's Query class, read off a pool (its Client) or a client (its class). */
function queryClassOf(db: Queryable): QueryClass | undefined {
  const Client = ('Client' in db ? (db as { Client?: unknown }).Client : db.constructor) as
    { Query?: QueryClass } | undefined;
  return Client?.Query;
}

/**
 * Runs a named prepared statement (the same SQL text gets the same name on every connection, so each
 * connection parses and plans it once; past MAX_NAMED_STATEMENTS texts, an unnamed one) and resolves
 * with `map(result)`: one promise per query, with pg's callback interface underneath (pg's promise
 * interface adds two of its own, pg-pool's a third).
 */
function prepared<T>(
  db: Queryable,
  text: string,
  values: readonly unknown[],
  arrays: boolean,
  map: (result: pg.QueryResult) => T | PromiseLike<T>,
): Promise<T> {
  const Query = queryClassOf(db);
  const Prepared = Query === undefined ? null : preparedQueryClass(Query);
  const name = statementName(text);
  const submitted =
    Prepared === null || name === undefined
      ? {
          ...(name === undefined ? {} : { name }),
          text,
          values: values as unknown[],
          ...(arrays ? { rowMode: 'array' } : {}),
        }
      : new Prepared(name, text, values as unknown[], arrays);
  return new Promise((resolve, reject) => {
    const done: QueryCallback = (error, result) => {
      if (error !== null && error !== undefined) reject(error);
      else {
        try {
          resolve(map(result));
        } catch (thrown) {
          reject(thrown);
        }
      }
    };
    // pool.query(query, callback) and client.query(query, callback) both take the callback second.
    (db.query as (query: unknown, callback: QueryCallback) => void)(submitted, done);
  });
}

const rowsOf = (result: pg.QueryResult) => result.rows;

/**
 * Rows as arrays of values, in the order the SELECT names its columns, from a prepared statement;
 * passed through `map` when given, in the same promise.
 */
export function queryArrays(db: Queryable, text: string, values: readonly unknown[]): Promise<unknown[][]>;
export function queryArrays<T>(
  db: Queryable,
  text: string,
  values: readonly unknown[],
  map: (rows: unknown[][]) => T | PromiseLike<T>,
): Promise<T>;
export function queryArrays(
  db: Queryable,
  text: string,
  values: readonly unknown[],
  map?: (rows: unknown[][]) => unknown,
): Promise<unknown> {
  return prepared(db, text, values, true, map === undefined ? rowsOf : (result) => map(result.rows as unknown[][]));
}

/** The first row as an array of values, passed through `map`, or undefined when there is none: one promise. */
export function queryFirstArray<T>(
  db: Queryable,
  text: string,
  values: readonly unknown[],
  map: (values: unknown[]) => T,
): Promise<T | undefined> {
  return prepared(db, text, values, true, (result) => {
    const first = result.rows[0] as unknown[] | undefined;
    return first === undefined ? undefined : map(first);
  });
}

/** Rows as objects, from a prepared statement; `rowCount` for writes. */
export function query<R extends pg.QueryResultRow>(
  db: Queryable,
  text: string,
  values: readonly unknown[] = [],
): Promise<pg.QueryResult<R>> {
  return prepared(db, text, values, false, (result) => result as pg.QueryResult<R>);
}

/** PostgreSQL's codes for a transaction that lost a race and may simply be run again. */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '40001' || code === '40P01';
}

/**
 * Runs `work` in one transaction on a client of its own: COMMIT when it resolves, ROLLBACK when it
 * rejects; run again (at most `attempts` times) when PostgreSQL reports a deadlock or a serialisation
 * failure, which decide nothing but which of two racing transactions goes first.
 */
export async function inPostgresTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (!isRetryable(error) || attempt >= attempts) throw error;
    } finally {
      client.release();
    }
  }
}

/**
 * Runs `work` on one pooled client in a read-only transaction whose statements PostgreSQL cancels
 * (error 57014) once one runs longer than `timeoutMs`: SET LOCAL, so the setting ends with the
 * transaction and the connection goes back to the pool as it came.
 */
export async function underStatementTimeout<T>(
  pool: pg.Pool,
  timeoutMs: number,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
