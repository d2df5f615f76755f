import { createHash } from 'node:crypto';
import type pg from 'pg';

/** A pool or one checked-out client: both run queries. */
export type Queryable = pg.Pool | pg.PoolClient;

const names = new Map<string, string>();

/**
 * A statement's name for PostgreSQL's prepared-statement cache: the same SQL text gets the same name on
 * every connection, so each connection parses and plans it once.
 */
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/** Rows as arrays of values, in the order the SELECT names its columns, from a prepared statement. */
export async function queryArrays(db: Queryable, text: string, values: readonly unknown[]): Promise<unknown[][]> {
  const result = await db.query({ name: statementName(text), text, values: values as unknown[], rowMode: 'array' });
  return result.rows as unknown[][];
}

/** Rows as objects, from a prepared statement; `rowCount` for writes. */
export async function query<R extends pg.QueryResultRow>(db: Queryable, text: string, values: readonly unknown[] = []): Promise<pg.QueryResult<R>> {
  return db.query<R>({ name: statementName(text), text, values: values as unknown[] });
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
export async function inPostgresTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, attempts = 5): Promise<T> {
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
export async function underStatementTimeout<T>(pool: pg.Pool, timeoutMs: number, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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
