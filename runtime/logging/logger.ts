import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { cachedIsoTime } from './iso-time.ts';
import { BatchedLineStream, type SyncLineSink } from './batched-line-stream.ts';
import { markJsonLogger } from './json-line-writer.ts';

export type { Logger } from 'pino';

/** pino-pretty, loaded only for LOG_FORMAT=pretty: a JSON logger never needs it (about 30 modules). */
const pretty = (options: PinoPretty.PrettyOptions) =>
  (createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty)(options);

/** LOG_LEVEL values, most to least severe; `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_FORMAT values: one JSON object a line (for machines), or coloured text (for people at a terminal). */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  /** Default `info`. */
  readonly level?: LogLevel;
  /** Default `json`. */
  readonly format?: LogFormat;
  /** Where lines go. Default: standard output, written synchronously. */
  readonly destination?: DestinationStream;
}

/**
 * The server's logger: pino, one JSON object a line, with an ISO 8601 `time` and the level as its
 * name (`"level":"info"`), so a log shipper needs no pino-specific decoding. Standard output gets
 * its lines in batches (BatchedLineStream): in order, at most 50 ms after they were logged, in one
 * synchronous write per batch, and written before the process exits; plain lines beside them go
 * through writePlainLine(). An
 * `authorization` member (at the top, or in `headers` / `req.headers`) is censored: the request log
 * never records headers, and this keeps it so if someone logs them later.
 *
 * @example
 * const logger = createLogger({ level: 'debug', format: 'pretty' });
 * logger.info({ port: 3000 }, 'server started');
 */
export function createLogger({ level = 'info', format = 'json', destination }: LoggerOptions = {}): Logger {
  const stream =
    destination ??
    (format === 'pretty'
      ? pretty({ sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:standard' })
      : new BatchedLineStream(standardOutputBytes()));
  const logger = pino(
    {
      level,
      timestamp: cachedIsoTime(),
      formatters: { level: (label) => ({ level: label }) },
      // Named paths only: a wildcard path (`*.authorization`) triples the cost of every line (5 → 15 µs).
      redact: { paths: ['authorization', 'headers.authorization', 'req.headers.authorization'], censor: '[redacted]' },
    },
    stream,
  );
  // Pretty output goes through pino-pretty; JSON lines have the layout infoLineWriter() writes.
  return format === 'json' ? markJsonLogger(logger) : logger;
}

/**
 * Standard output as a synchronous sink of bytes: pino's SonicBoom destination in buffer mode, where
 * write() takes the batch's bytes as they are (sonic-boom's writeBuffer). Its types name only
 * strings, the utf8 mode's argument.
 */
function standardOutputBytes(): SyncLineSink {
  return pino.destination({ dest: 1, sync: true, contentMode: 'buffer' }) as unknown as SyncLineSink;
}

/**
 * Writes one line of plain text (not JSON) to the logger's output, after the log lines written
 * before it and at once, never inside another line: the contract's `listening on <url>`, which
 * scripts wait for.
 */
export function writePlainLine(logger: Logger, text: string): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    { write(text: string): unknown; flushSync?: () => void } | undefined;
  if (stream?.flushSync !== undefined) {
    stream.write(`${text}\n`);
    stream.flushSync();
  } else {
    // Pretty output is synchronous: a direct write keeps the order.
    writeSync(1, `${text}\n`);
  }
}

/** A logger that writes nothing: the default of middleware and servers built without one. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
