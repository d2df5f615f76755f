export { rateLimit, type RateLimitOptions } from './rate-limit.ts';
export {
  MemoryCallCounter,
  flexibleCallCounter,
  type CallCount,
  type CallCounter,
  type MemoryCallCounterOptions,
} from './call-counter.ts';
export { limitsFromEnvironment, DEFAULT_LIMITS, type FamilyLimit, type FamilyLimits } from './limits-from-env.ts';
export { clientAddress, limitKey } from './client-key.ts';
export {
  redisCounters,
  postgresCounters,
  memoryCounters,
  RATE_LIMIT_TABLES,
  type FamilyCounter,
} from './shared-counters.ts';
export { resilientCounter, type ResilientCounterOptions } from './resilient-counter.ts';
export { connectRedis, RedisUnavailableError } from './redis-connection.ts';
export { leasedCounter, type LeasedCounterOptions } from './leased-counter.ts';
