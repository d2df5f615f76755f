import type { Redis } from 'ioredis';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRedis } from 'rate-limiter-flexible';
import { MemoryCallCounter, type CallCounter } from './call-counter.ts';
import { leasedCounter } from './leased-counter.ts';
import type { FamilyLimit } from './limits-from-env.ts';
import { resilientCounter } from './resilient-counter.ts';

/** The counter of one path family's calls, given its limit. */
export type FamilyCounter = (family: string, limit: FamilyLimit) => CallCounter;

/** The table rate-limiter-flexible's RateLimiterPostgres counts in, made by the server's migration. */
export const RATE_LIMIT_TABLE = 'rate_limits';
export const RATE_LIMIT_TABLES = `
  CREATE TABLE IF NOT EXISTS ${RATE_LIMIT_TABLE} (
    key varchar(255) PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  );`;

/**
 * Counters in Redis, shared by every instance (an atomic INCRBY-with-expiry script per reservation of
 * a batch, see leasedCounter). While Redis cannot answer, each instance counts in its own memory and
 * goes on serving (resilientCounter).
 */
export function redisCounters(redis: Redis, log?: (line: string) => void): FamilyCounter {
  return (family, { points, durationSeconds }) =>
    resilientCounter({
      name: 'Redis call-limit counters',
      ...(log === undefined ? {} : { log }),
      shared: leasedCounter({
        limiter: new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `convapi:${family}`,
          points,
          duration: durationSeconds,
        }),
        points,
      }),
      fallback: new MemoryCallCounter({ points, durationSeconds }),
    });
}

/** Counters in PostgreSQL (an atomic upsert per reservation of a batch, see leasedCounter), shared by every instance on the database. */
export function postgresCounters(pool: pg.Pool): FamilyCounter {
  return (family, { points, durationSeconds }) =>
    leasedCounter({
      points,
      limiter: new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        keyPrefix: `convapi:${family}`,
        points,
        duration: durationSeconds,
      }),
    });
}

/** Counters in this process's memory: SQLite's, for one server process. */
export const memoryCounters: FamilyCounter = (_family, { points, durationSeconds }) =>
  new MemoryCallCounter({ points, durationSeconds });
