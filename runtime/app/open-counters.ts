import { connectRedis, memoryCounters, postgresCounters, redisCounters, type FamilyCounter } from '../limits/index.ts';
import type { Backend } from './open-backend.ts';

export interface OpenedCounters {
  /** Where calls are counted: `redis`, `postgres` or `memory` (per process). */
  readonly where: 'redis' | 'postgres' | 'memory';
  readonly counter: FamilyCounter;
  close(): Promise<void>;
}

/**
 * Where the call-limit counters live: Redis when REDIS_URL is set (shared by every instance), else
 * PostgreSQL when the data is there (shared too), else this process's memory (SQLite: one process).
 * An unreachable Redis at start-up rejects with a RedisUnavailableError of one sentence.
 */
export async function openCounters(redisUrl: string | undefined, backend: Backend): Promise<OpenedCounters> {
  if (redisUrl !== undefined) {
    const redis = await connectRedis(redisUrl);
    return {
      where: 'redis',
      counter: redisCounters(redis),
      close: async () => {
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  }
  if (backend.pool !== undefined) return { where: 'postgres', counter: postgresCounters(backend.pool), close: async () => undefined };
  return { where: 'memory', counter: memoryCounters, close: async () => undefined };
}
