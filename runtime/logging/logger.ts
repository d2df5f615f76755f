import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

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
 * name (`"level":"info"`), so a log shipper needs no pino-specific decoding. Writes are synchronous
 * so that no line is lost when the process exits and lines never interleave with the
 * `listening on <url>` line written beside them. Any `authorization` member is censored wherever it
 * appears: the request log never records headers, and this keeps it so if someone logs them later.
 *
 * @example
 * const logger = createLogger({ level: 'debug', format: 'pretty' });
 * logger.info({ port: 3000 }, 'server started');
 */
export function createLogger({ level = 'info', format = 'json', destination }: LoggerOptions = {}): Logger {
  const stream = destination ?? (format === 'pretty' ? pretty({ sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:standard' }) : pino.destination({ dest: 1, sync: true }));
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: ['authorization', '*.authorization', 'headers.authorization', '*.headers.authorization'], censor: '[redacted]' },
    },
    stream,
  );
}

/** A logger that writes nothing: the default of middleware and servers built without one. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
