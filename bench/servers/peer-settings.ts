/**
 * The settings the hand-written peers share with the generated server (c), so that a ratio measures
 * what c does per request and not a setting a competent user would have copied. Each value is c's;
 * test/bench/peer-settings.test.ts checks them against c's own behaviour.
 */

/**
 * c's PostgreSQL pool (runtime/storage/postgres/connect.ts): DEFAULT_POOL_SIZE connections, min = max,
 * so a connection once opened stays open and pg-pool arms no idle timer when it takes one back.
 */
export const PEER_POOL = { max: 10, min: 10 } as const;

/**
 * c's gzip (runtime/responses/compression.ts): bodies from 1 KiB, zlib with an 8 KiB window and
 * memLevel 7. What stays c's own: it gzips a JSON text of up to 64 KiB at once (zlib.gzipSync) where
 * koa-compress and @fastify/compress pipe it through a stream.
 */
export const PEER_GZIP = { thresholdBytes: 1024, zlib: { windowBits: 13, memLevel: 7 } } as const;

/** The peers' compression in one sentence, for the reports' notes. */
export const PEER_GZIP_NOTE = `b (koa-compress) and f (@fastify/compress) gzip with c's threshold (${PEER_GZIP.thresholdBytes} bytes) and zlib settings (windowBits ${PEER_GZIP.zlib.windowBits}, memLevel ${PEER_GZIP.zlib.memLevel}); c gzips a JSON text of up to 64 KiB at once (zlib.gzipSync) where their libraries use a stream, which is part of what c/b and c/f measure. o (hono/compress) is given the same threshold, but applies it only to a response that declares its length, which c.json does not: o gzips every JSON body, GET one's too, through the platform's CompressionStream (zlib's defaults; it takes no settings).`;
