export {
  createLogger,
  silentLogger,
  writePlainLine,
  LOG_LEVELS,
  LOG_FORMATS,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  type LogFormat,
} from './logger.ts';
export { requestLog, type RequestLogOptions } from './request-log.ts';
export { assignRequestId, requestIdOf } from './request-id.ts';
