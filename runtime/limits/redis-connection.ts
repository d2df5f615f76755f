import type { Redis } from 'ioredis';

/** Redis could not be used at start-up: one sentence, no stack. */
export class RedisUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RedisUnavailableError';
  }
}

export interface RedisConnectionOptions {
  /** How long the first connection may take, in ms. Default 3000. */
  readonly connectTimeoutMs?: number;
  /** How long one command may take before it fails (so a hung Redis never holds a request), in ms. Default 500. */
  readonly commandTimeoutMs?: number;
}

/**
 * Connects to REDIS_URL and checks it answers (PING) before the server listens. Afterwards commands
 * never queue while the connection is down (enableOfflineQueue off): they fail at once, and the
 * client reconnects in the background.
 */
export async function connectRedis(
  url: string,
  { connectTimeoutMs = 3000, commandTimeoutMs = 500 }: RedisConnectionOptions = {},
): Promise<Redis> {
  // Loaded here, not at start: a server without REDIS_URL never loads ioredis.
  const { Redis: RedisClient } = await import('ioredis');
  const redis = new RedisClient(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: connectTimeoutMs,
    commandTimeout: commandTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let lastError: Error | undefined;
  // Without a listener a connection error would end the process; the counters report outages themselves.
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  const parsed = new URL(url);
  const where = `Redis at ${parsed.hostname}:${parsed.port || '6379'}`;
  try {
    await withTimeout(redis.connect(), connectTimeoutMs + 500, () => lastError?.message ?? 'no answer');
    await withTimeout(redis.ping(), connectTimeoutMs, () => 'no answer to PING');
    return redis;
  } catch (error) {
    redis.disconnect();
    const message = (lastError ?? (error as Error)).message;
    if (/WRONGPASS|NOAUTH|invalid password|invalid username/i.test(message))
      throw new RedisUnavailableError(`${where} refused the credentials in REDIS_URL`, { cause: error });
    if (/ECONNREFUSED/.test(message))
      throw new RedisUnavailableError(`cannot reach ${where}: connection refused; is the server running?`, {
        cause: error,
      });
    if (/ENOTFOUND|EAI_AGAIN/.test(message))
      throw new RedisUnavailableError(`cannot reach ${where}: unknown host`, { cause: error });
    throw new RedisUnavailableError(`cannot use ${where}: ${message}`, { cause: error });
  }
}

function withTimeout<T>(pending: Promise<T>, ms: number, reason: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(reason())), ms);
  });
  return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
}
