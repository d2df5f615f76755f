import { connectRedis, memoryCounters, postgresCounters, redisCounters, type FamilyCounter } from '../limits/index.ts';
import type { Backend } from './open-backend.ts';
import type { Logger } from '../logging/index.ts';
import type { ReadinessCheck } from '../services/index.ts';

export interface OpenedCounters {
  /** Where calls are counted: `redis`, `postgres` or `memory` (per process). */
  readonly where: 'redis' | 'postgres' | 'memory';
  readonly counter: FamilyCounter;
  /**
   * What readiness reports besides the database: Redis, as an optional check. While Redis is down
   * every instance keeps serving with per-process counting, so readiness says `degraded` instead of
   * failing: a 503 would make a load balancer drop every instance at once for an outage they ride out.
   */
  readonly readiness: readonly ReadinessCheck[];
  close(): Promise<void>;
}

/**
 * Where the call-limit counters live: Redis when REDIS_URL is set (shared by every instance), else
 * PostgreSQL when the data is there (shared too), else this process's memory (SQLite: one process).
 * An unreachable Redis at start-up rejects with a RedisUnavailableError of one sentence.
 */
export async function openCounters(
  redisUrl: string | undefined,
  backend: Backend,
  logger?: Logger,
): Promise<OpenedCounters> {
  if (redisUrl !== undefined) {
    const redis = await connectRedis(redisUrl);
    return {
      where: 'redis',
      counter: redisCounters(redis, logger === undefined ? undefined : (line) => logger.warn(line)),
      readiness: [{ name: 'redis', optional: true, check: () => redis.ping() }],
      close: async () => {
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  }
  if (backend.pool !== undefined)
    return { where: 'postgres', counter: postgresCounters(backend.pool), readiness: [], close: async () => undefined };
  return { where: 'memory', counter: memoryCounters, readiness: [], close: async () => undefined };
}
