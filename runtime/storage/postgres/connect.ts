import type pg from 'pg';

/** Connections each process keeps to PostgreSQL at most (DATABASE_POOL_SIZE); once opened, they stay open. */
export const DEFAULT_POOL_SIZE = 10;

/** A start-up failure that deserves one line and exit 1: unreachable, refused credentials, no such database. */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

export interface PostgresPoolOptions {
  /** Connections kept at most. Default DEFAULT_POOL_SIZE. */
  readonly size?: number;
  /** How long opening a connection may take before it fails, in ms. Default 5000. */
  readonly connectTimeoutMs?: number;
}

/** bigint (count(*), identity keys) as a JavaScript number, as node:sqlite gives it; ids stay below 2^53. */
const numberBigints = (types: typeof pg.types) => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === types.builtins.INT8 ? Number : types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
});

/**
 * A connection pool on a postgres:// URL, checked with one query before it is handed out, so an
 * unreachable server, refused credentials or a missing database fail at start-up with one clear
 * sentence (DatabaseUnavailableError) instead of at the first request.
 */
export async function connectPostgres(
  url: string,
  { size = DEFAULT_POOL_SIZE, connectTimeoutMs = 5000 }: PostgresPoolOptions = {},
): Promise<pg.Pool> {
  // Loaded here, not at start: a server on SQLite never loads pg.
  const { default: postgres } = await import('pg');
  // The connect timeout on each new connection, not on the pool's checkout: with it there, pg-pool
  // arms and clears a timer on every query, a measurable share of a PostgreSQL GET (BENCHMARKS.md).
  class TimedClient extends postgres.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }
  }
  // min = max: a connection, once opened, stays open. Below min pg-pool arms no idle timer when it
  // takes a connection back, a timer armed and cleared on every query otherwise (BENCHMARKS.md).
  const pool = new postgres.Pool({
    connectionString: url,
    max: size,
    min: size,
    types: numberBigints(postgres.types),
    Client: TimedClient,
  });
  // An idle connection that the server drops (restart, failover) is replaced on next use; without a
  // listener its error would end the process.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(describeFailure(url, error), { cause: error });
  }
}

function describeFailure(url: string, error: unknown): string {
  const parsed = new URL(url);
  const where = `PostgreSQL at ${parsed.hostname}:${parsed.port || '5432'}`;
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username);
  const { code, message } = error as { code?: string; message?: string };
  switch (code) {
    case '28P01':
    case '28000':
      return `${where} refused the credentials of user "${decodeURIComponent(parsed.username)}"; check DATABASE_URL`;
    case '3D000':
      return `${where} has no database "${database}"; create it (createdb ${database}) or fix DATABASE_URL`;
    case 'ECONNREFUSED':
      return `cannot reach ${where}: connection refused; is the server running?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot reach ${where}: unknown host`;
    default:
      if (/timeout/i.test(message ?? '')) return `cannot reach ${where}: no answer within the connect timeout`;
      return `cannot use ${where}: ${message ?? String(error)}`;
  }
}
