import { ApiError, type ErrorEntry } from './api-error.ts';

/**
 * Why a dependency (the store, Redis) cannot serve a request just now. Each is a state of the
 * machine or the network, not of the request: the client is told to come back (503 with
 * Retry-After), never that the server is broken (500).
 */
export type DependencyFault = 'unreachable' | 'disk_full' | 'read_only' | 'io_error' | 'busy' | 'file_replaced';

/** The words each fault is told in, in error bodies, readiness and logs: never an address or a path. */
const DESCRIPTIONS: Readonly<Record<DependencyFault, string>> = {
  unreachable: 'cannot be reached',
  disk_full: 'no disk space left',
  read_only: 'read-only, accepts no writes',
  io_error: 'input/output error',
  busy: 'too busy to answer',
  file_replaced: 'the database file was removed or replaced since the server opened it',
};

/**
 * Seconds a client should wait before trying again (Retry-After): a restarting database or a busy
 * one is back within seconds; a full or read-only disk needs an operator, so clients wait longer.
 */
const RETRY_AFTER_SECONDS: Readonly<Record<DependencyFault, number>> = {
  unreachable: 5,
  disk_full: 30,
  read_only: 30,
  io_error: 10,
  busy: 1,
  file_replaced: 30,
};

/**
 * 503 dependency_unavailable: `dependency` (the readiness check's name, `store`) cannot serve the
 * request, with Retry-After. The same error answers a request that met the fault and a readiness
 * check that found it, so both bodies read alike.
 */
export class DependencyUnavailableError extends ApiError {
  readonly fault: DependencyFault;

  constructor(
    dependency: string,
    fault: DependencyFault,
    options: { readonly cause?: unknown; readonly more?: ErrorEntry[] } = {},
  ) {
    super(503, 'dependency_unavailable', `${dependency}: ${DESCRIPTIONS[fault]}; try again later`, {
      resource: dependency,
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS[fault]) },
      ...(options.more === undefined ? {} : { more: options.more }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.fault = fault;
  }
}

/** `dependency_unavailable` for `dependency`, or undefined when `error` is no fault of a dependency. */
export function dependencyFaultError(dependency: string, error: unknown): DependencyUnavailableError | undefined {
  if (error instanceof DependencyUnavailableError) return error;
  const fault = dependencyFaultOf(error);
  return fault === undefined ? undefined : new DependencyUnavailableError(dependency, fault, { cause: error });
}

/**
 * The fault an engine's error reports, read from the codes the engines document (the error itself,
 * or the cause it wraps), or undefined for anything else (a bug, a constraint, a bad statement):
 * - node:sqlite (`code: 'ERR_SQLITE_ERROR'`, `errcode` the extended result code): SQLITE_FULL,
 *   SQLITE_IOERR_*, SQLITE_CANTOPEN, SQLITE_READONLY_*, SQLITE_BUSY and SQLITE_LOCKED.
 * - pg (`code` the SQLSTATE): class 08 (connection exception), 57P01–57P03 (the server is shutting
 *   down or starting), 53100 (disk full), 53300 (too many connections), 25006 (a read-only standby);
 *   Node's socket errors (ECONNREFUSED, ECONNRESET...); and pg's own messages for a connection
 *   that ended or could not be opened in time, which carry no code.
 */
export function dependencyFaultOf(error: unknown): DependencyFault | undefined {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth += 1) {
    const fault = faultOfOne(current as EngineError);
    if (fault !== undefined) return fault;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

interface EngineError {
  readonly code?: unknown;
  readonly errcode?: unknown;
  readonly message?: unknown;
}

function faultOfOne(error: EngineError): DependencyFault | undefined {
  if (error.code === 'ERR_SQLITE_ERROR' && typeof error.errcode === 'number') return sqliteFault(error.errcode);
  if (typeof error.code === 'string') {
    const fault = SOCKET_ERRORS.has(error.code) ? 'unreachable' : postgresFault(error.code);
    if (fault !== undefined) return fault;
  }
  return typeof error.message === 'string' && PG_CONNECTION_MESSAGES.test(error.message) ? 'unreachable' : undefined;
}

// SQLite's primary result codes (the low byte of an extended code): https://sqlite.org/rescode.html
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
/** SQLITE_READONLY_DBMOVED: SQLite noticed itself that the file was renamed or unlinked. */
const SQLITE_READONLY_DBMOVED = 1032;

function sqliteFault(errcode: number): DependencyFault | undefined {
  if (errcode === SQLITE_READONLY_DBMOVED) return 'file_replaced';
  switch (errcode & 0xff) {
    case SQLITE_FULL:
      return 'disk_full';
    case SQLITE_IOERR:
      return 'io_error';
    case SQLITE_CANTOPEN:
      return 'unreachable';
    case SQLITE_READONLY:
      return 'read_only';
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return 'busy';
    default:
      return undefined;
  }
}

function postgresFault(sqlstate: string): DependencyFault | undefined {
  if (sqlstate.startsWith('08') || sqlstate === '57P01' || sqlstate === '57P02' || sqlstate === '57P03')
    return 'unreachable';
  if (sqlstate === '53100') return 'disk_full';
  if (sqlstate === '53300' || sqlstate === '53400') return 'busy';
  if (sqlstate === '25006') return 'read_only';
  return undefined;
}

/** Node's errors for a connection that could not be made or broke off. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/** pg's errors for a connection that ended, timed out opening, or is no longer usable (no code). */
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end)/;
