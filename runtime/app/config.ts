import {
  DEFAULT_DATABASE_URL,
  DEFAULT_SEARCH_THREADS,
  DEFAULT_SEARCH_TIMEOUT_MS,
  parseDatabaseUrl,
} from '../storage/index.ts';
import { DEFAULT_POOL_SIZE } from '../storage/postgres/connect.ts';
import { limitsFromEnvironment, type FamilyLimits } from '../limits/index.ts';
import { jwtOptionsFromEnvironment, type JwtOptions } from '../auth/index.ts';
import { documentsAt, type DocumentFor } from '../errors/index.ts';
import { connectionSettingsFrom, type ConnectionSettings } from '../http/connection-settings.ts';
import { DEFAULT_MAX_HEADERS, DEFAULT_MAX_QUERY_PARAMETERS } from '../http/request-bounds.ts';
import type { DocsAccess } from '../docs/index.ts';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../logging/index.ts';
import { corsOriginsFrom } from '../http/cors.ts';

/** Server settings read from the environment (contract: PORT, HOST, DATABASE_URL, BASE_URL, ...). */
export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Absolute base of every URI in bodies and headers, no trailing slash. */
  readonly baseUrl: string;
  readonly databaseUrl: string;
  /** PostgreSQL connections each process keeps at most (DATABASE_POOL_SIZE, default 10). */
  readonly databasePoolSize: number;
  /**
   * The time budget of one search (SEARCH_TIMEOUT_MS, default 2000; past it 503 search_timeout) and
   * the threads SQLite searches run in beside the event loop (SEARCH_THREADS, default 1; 0: on it).
   */
  readonly search: { readonly timeoutMs: number; readonly threads: number };
  /** Where call-limit counters are shared (REDIS_URL); unset: PostgreSQL's when DATABASE_URL is one, else this process's memory. */
  readonly redisUrl: string | undefined;
  /** Largest request body, bytes (BODY_LIMIT_BYTES, default 1 MiB). */
  readonly bodyLimitBytes: number;
  /** The Server header (SERVER_HEADER, default `conventional-api`). */
  readonly serverHeader: string;
  /** X-Powered-By, only when POWERED_BY is set. */
  readonly poweredBy: string | undefined;
  /** Peers whose X-Forwarded-For is believed (TRUSTED_PROXIES, comma-separated addresses). */
  readonly trustedProxies: readonly string[];
  /** Call limits per family (RATE_LIMIT_RESOURCE / _SERVICE / _SETTING). */
  readonly limits: FamilyLimits;
  /** JWT verification for tokens issued elsewhere (JWT_ISSUER...), off by default. */
  readonly jwt: JwtOptions | undefined;
  /** Jobs run at once in this process per queue (JOB_WORKERS; 0 runs none here). Default: the queue's own. */
  readonly jobWorkers: number | undefined;
  /** 102 Processing: after how long a running request gets the first, and how often the next (PROCESSING_AFTER_MS, PROCESSING_INTERVAL_MS). */
  readonly processing: { readonly afterMs: number; readonly everyMs: number };
  /**
   * Header fields and query parameters one request may carry (MAX_HEADERS, MAX_QUERY_PARAMETERS,
   * default 100 each): beyond them 400 too_many_headers / too_many_parameters.
   */
  readonly requestBounds: { readonly maxHeaders: number; readonly maxQueryParameters: number };
  /** Timeouts and the connection cap (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, MAX_CONNECTIONS...). */
  readonly connections: ConnectionSettings;
  /** The documentation address of each error code, `errors[].document` (ERROR_DOCS_URL; none by default). */
  readonly documentFor: DocumentFor | undefined;
  /** How long a running job's lease lasts before another instance may take it over (JOB_LEASE_MS, default 30000). */
  readonly jobLeaseMs: number;
  /**
   * How often the server checks whether it is quiet (fewer than 20 requests a second, none in
   * flight) with garbage a burst left in its heap, and collects it, returning that memory to the
   * system (HEAP_RETURN_INTERVAL_MS, default 2000; 0: never, V8 collects only as JavaScript allocates).
   */
  readonly heapReturnIntervalMs: number;
  /**
   * Who may read the OpenAPI documents and the docs pages (DOCS_ACCESS): `token` (the default) asks
   * for a bearer token like every other call; `public` answers them without one.
   */
  readonly docsAccess: DocsAccess;
  /**
   * How long a graceful shutdown lets in-flight requests (and running jobs) finish before their
   * connections are closed (SHUTDOWN_TIMEOUT_MS, default 8000: inside the 10 s that `docker stop`
   * and many process managers wait before SIGKILL, with time left to close the store).
   */
  readonly shutdownTimeoutMs: number;
  /** LOG_LEVEL: fatal, error, warn, info (default), debug, trace or silent. */
  readonly logLevel: LogLevel;
  /** LOG_FORMAT: json (default, one object a line) or pretty (for a terminal). */
  readonly logFormat: LogFormat;
  /**
   * Origins whose browser pages may call the API (CORS_ORIGINS: exact origins, comma-separated, or
   * `*`). Unset: no CORS header is ever sent, and a preflight is answered as any OPTIONS.
   */
  readonly corsOrigins: readonly string[] | '*' | undefined;
  /** Prometheus metrics on a port of their own (METRICS_PORT; unset: no metrics are kept at all). */
  readonly metrics: { readonly host: string; readonly port: number; readonly token: string | undefined } | undefined;
}

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 8000;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function configFromEnvironment(env: NodeJS.ProcessEnv): ServerConfig {
  const host = env.HOST || '127.0.0.1';
  const port = integer(env, 'PORT', 3000, 0, 65_535);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = (env.BASE_URL || `http://${urlHost}:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(baseUrl))
    throw new ConfigError(`BASE_URL "${env.BASE_URL}" must be an absolute http(s) URL`);
  return {
    host,
    port,
    baseUrl,
    databaseUrl: guarded(() => {
      const url = env.DATABASE_URL || DEFAULT_DATABASE_URL;
      parseDatabaseUrl(url);
      return url;
    }),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', DEFAULT_POOL_SIZE, 1, 1000),
    search: {
      timeoutMs: integer(env, 'SEARCH_TIMEOUT_MS', DEFAULT_SEARCH_TIMEOUT_MS, 1, 600_000),
      threads: integer(env, 'SEARCH_THREADS', DEFAULT_SEARCH_THREADS, 0, 64),
    },
    redisUrl: guarded(() => redisUrlOf(env.REDIS_URL)),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1, 1024 * 1024 * 1024),
    serverHeader: env.SERVER_HEADER || 'conventional-api',
    poweredBy: env.POWERED_BY || undefined,
    trustedProxies: (env.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
    limits: guarded(() => limitsFromEnvironment(env)),
    jwt: guarded(() => jwtOptionsFromEnvironment(env)),
    jobWorkers:
      env.JOB_WORKERS === undefined || env.JOB_WORKERS === '' ? undefined : integer(env, 'JOB_WORKERS', 0, 0, 64),
    processing: {
      afterMs: integer(env, 'PROCESSING_AFTER_MS', 1000, 0, 3_600_000),
      everyMs: integer(env, 'PROCESSING_INTERVAL_MS', 1000, 10, 3_600_000),
    },
    requestBounds: {
      // Node itself refuses a request of more than 2,000 header fields (431): the bound is below it.
      maxHeaders: integer(env, 'MAX_HEADERS', DEFAULT_MAX_HEADERS, 1, 1999),
      maxQueryParameters: integer(env, 'MAX_QUERY_PARAMETERS', DEFAULT_MAX_QUERY_PARAMETERS, 1, 100_000),
    },
    connections: guarded(() =>
      connectionSettingsFrom((name, fallback, min, max) => integer(env, name, fallback, min, max)),
    ),
    documentFor: errorDocuments(env.ERROR_DOCS_URL),
    jobLeaseMs: integer(env, 'JOB_LEASE_MS', 30_000, 1000, 24 * 3600 * 1000),
    heapReturnIntervalMs: integer(env, 'HEAP_RETURN_INTERVAL_MS', 2000, 0, 3_600_000),
    docsAccess: docsAccess(env.DOCS_ACCESS),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', DEFAULT_SHUTDOWN_TIMEOUT_MS, 0, 3_600_000),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', LOG_FORMATS, 'json'),
    corsOrigins: guarded(() => corsOriginsFrom(env.CORS_ORIGINS)),
    metrics:
      env.METRICS_PORT === undefined || env.METRICS_PORT === ''
        ? undefined
        : {
            host: env.METRICS_HOST || '127.0.0.1',
            port: integer(env, 'METRICS_PORT', 0, 0, 65_535),
            token: env.METRICS_TOKEN || undefined,
          },
  };
}

function errorDocuments(base: string | undefined): DocumentFor | undefined {
  if (base === undefined || base === '') return undefined;
  if (!/^https?:\/\/[^/]+/.test(base))
    throw new ConfigError(`ERROR_DOCS_URL "${base}" must be an absolute http(s) URL`);
  return documentsAt(base);
}

function docsAccess(raw: string | undefined): DocsAccess {
  if (raw === undefined || raw === '' || raw === 'token') return 'token';
  if (raw === 'public') return 'public';
  throw new ConfigError(`DOCS_ACCESS must be token or public, not "${raw}"`);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  return value;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(value))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, not "${raw}"`);
  return value as T;
}

function guarded<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** REDIS_URL as given when it is a redis:// or rediss:// URL; unset when empty. */
function redisUrlOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^rediss?:\/\/[^/]/.test(raw)) throw new Error(`REDIS_URL "${raw}" is not understood; use redis://host:port`);
  return raw;
}
