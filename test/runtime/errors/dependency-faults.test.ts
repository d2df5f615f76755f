import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  DependencyUnavailableError,
  dependencyFaultError,
  dependencyFaultOf,
  toApiError,
  type DependencyFault,
} from '../../../runtime/errors/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';

/** An error as node:sqlite throws it: code ERR_SQLITE_ERROR and the extended result code. */
const sqliteError = (errcode: number) =>
  Object.assign(new Error(`sqlite ${errcode}`), { code: 'ERR_SQLITE_ERROR', errcode });
/** An error as pg throws it: code the SQLSTATE (or Node's socket error code). */
const codedError = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });

describe("a dependency's fault, read from what its engine threw", () => {
  it.each<[string, unknown, DependencyFault | undefined]>([
    ['SQLite: disk full', sqliteError(13), 'disk_full'],
    ['SQLite: an extended I/O error', sqliteError(10 | (3 << 8)), 'io_error'],
    ['SQLite: cannot open', sqliteError(14), 'unreachable'],
    ['SQLite: read-only', sqliteError(8), 'read_only'],
    ['SQLite: the file moved away', sqliteError(1032), 'file_replaced'],
    ['SQLite: busy', sqliteError(5), 'busy'],
    ['SQLite: locked', sqliteError(6), 'busy'],
    ['SQLite: a constraint', sqliteError(19), undefined],
    ['SQLite: no errcode', Object.assign(new Error('x'), { code: 'ERR_SQLITE_ERROR' }), undefined],
    ['an errcode without the SQLite code', Object.assign(new Error('x'), { errcode: 13 }), undefined],
    ['PostgreSQL: connection exception (class 08)', codedError('08006'), 'unreachable'],
    ['PostgreSQL: admin shutdown', codedError('57P01'), 'unreachable'],
    ['PostgreSQL: crash shutdown', codedError('57P02'), 'unreachable'],
    ['PostgreSQL: cannot connect now', codedError('57P03'), 'unreachable'],
    ['PostgreSQL: another 57P code', codedError('57P04'), undefined],
    ['PostgreSQL: disk full', codedError('53100'), 'disk_full'],
    ['PostgreSQL: too many connections', codedError('53300'), 'busy'],
    ['PostgreSQL: configuration limit', codedError('53400'), 'busy'],
    ['PostgreSQL: read-only transaction', codedError('25006'), 'read_only'],
    ['PostgreSQL: unique violation', codedError('23505'), undefined],
    ['a code ending in 08', codedError('23508'), undefined],
    ...[
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'ENOTFOUND',
      'EAI_AGAIN',
      'ECONNABORTED',
    ].map((code): [string, unknown, DependencyFault] => [`socket: ${code}`, codedError(code), 'unreachable']),
    ['another Node error', codedError('ENOENT'), undefined],
    ['pg: connection terminated', new Error('Connection terminated unexpectedly'), 'unreachable'],
    ['pg: connect timeout', new Error('timeout exceeded when trying to connect'), 'unreachable'],
    ['pg: client errored', new Error('Client has encountered a connection error and is not queryable'), 'unreachable'],
    ['pg: client closed', new Error('Client was closed and is not queryable'), 'unreachable'],
    ['pg: pool ended', new Error('Cannot use a pool after calling end on the pool'), 'unreachable'],
    ['those words inside another message', new Error('bug: Connection terminated was expected'), undefined],
    ['a message that is not text', { message: 42 }, undefined],
    ['a bug', new TypeError('x is undefined'), undefined],
    ['a string', 'ECONNREFUSED', undefined],
    ['null', null, undefined],
  ])('%s: %s', (_name, error, fault) => {
    expect(dependencyFaultOf(error)).toBe(fault);
  });

  it('looks through causes, three deep at most', () => {
    const wrapped = (error: unknown, times: number): unknown =>
      times === 0 ? error : wrapped(new Error('wrapper', { cause: error }), times - 1);
    expect(dependencyFaultOf(wrapped(codedError('ECONNREFUSED'), 1))).toBe('unreachable');
    expect(dependencyFaultOf(wrapped(sqliteError(13), 3))).toBe('disk_full');
    expect(dependencyFaultOf(wrapped(sqliteError(13), 4))).toBeUndefined();
    // A fault in the wrapper itself wins over its cause's.
    expect(dependencyFaultOf(Object.assign(codedError('53300'), { cause: sqliteError(13) }))).toBe('busy');
  });
});

describe('503 dependency_unavailable', () => {
  it.each<[DependencyFault, string, string]>([
    ['unreachable', 'cannot be reached', '5'],
    ['disk_full', 'no disk space left', '30'],
    ['read_only', 'read-only, accepts no writes', '30'],
    ['io_error', 'input/output error', '10'],
    ['busy', 'too busy to answer', '1'],
    ['file_replaced', 'the database file was removed or replaced since the server opened it', '30'],
  ])('%s: says so in words, with Retry-After %s', (fault, words, retryAfter) => {
    const error = new DependencyUnavailableError('store', fault);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.fault).toBe(fault);
    expect(error.toBody()).toEqual({
      message: 'Service Unavailable',
      errors: [{ code: 'dependency_unavailable', message: `store: ${words}; try again later`, resource: 'store' }],
    });
    expect(error.headers).toEqual({ 'Retry-After': retryAfter });
  });

  it('carries further entries and the cause when given', () => {
    const cause = sqliteError(13);
    const error = new DependencyUnavailableError('store', 'disk_full', {
      cause,
      more: [
        { code: 'dependency_unavailable', message: 'redis: cannot be reached; try again later', resource: 'redis' },
      ],
    });
    expect(error.cause).toBe(cause);
    expect(error.toBody().errors.map((entry) => entry.resource)).toEqual(['store', 'redis']);
    expect('cause' in new DependencyUnavailableError('store', 'busy')).toBe(false);
  });

  it('dependencyFaultError(): the error for a fault, the same error again, nothing for anything else', () => {
    const cause = codedError('ECONNREFUSED');
    const error = dependencyFaultError('redis', cause);
    expect(error).toMatchObject({
      status: 503,
      code: 'dependency_unavailable',
      fault: 'unreachable',
      message: 'redis: cannot be reached; try again later',
      cause,
    });
    expect(dependencyFaultError('store', error)).toBe(error);
    expect(dependencyFaultError('store', new Error('bug'))).toBeUndefined();
  });

  it('what the error handler answers for an engine error that reports a fault of the store', async () => {
    const app = new Koa();
    app.use(errorHandler({ report: () => undefined }));
    app.use(() => {
      throw sqliteError(13);
    });
    const response = await request(app.callback()).post('/v1/orders');
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.body.errors).toEqual([
      { code: 'dependency_unavailable', message: 'store: no disk space left; try again later', resource: 'store' },
    ]);
  });

  it("toApiError(): a fault is the store's 503, and other errors keep their cause for the log", () => {
    const busy = sqliteError(5);
    expect(toApiError(busy)).toMatchObject({
      status: 503,
      code: 'dependency_unavailable',
      resource: 'store',
      cause: busy,
    });
    const tooLarge = Object.assign(new Error('too large'), { type: 'entity.too.large' });
    expect(toApiError(tooLarge).cause).toBe(tooLarge);
    const notFound = Object.assign(new Error('nope'), { status: 404 });
    expect(toApiError(notFound).cause).toBe(notFound);
  });
});
