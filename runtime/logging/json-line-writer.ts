import { pino, type Logger } from 'pino';

/** Loggers made by createLogger() in JSON format: their lines have a layout this module can write itself. */
const JSON_LOGGERS = new WeakSet<Logger>();

/** Remembers that `logger` writes createLogger()'s JSON layout (called by createLogger only). */
export function markJsonLogger(logger: Logger): Logger {
  JSON_LOGGERS.add(logger);
  return logger;
}

/** A flat log record: each value a string, number, boolean or undefined (left out). */
export type FlatRecord = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * For a logger made by createLogger() in JSON format, a function that writes `logger.info(record,
 * msg)`'s line byte for byte (level, time, pid and hostname, the record's members in order, msg),
 * built here in one pass instead of by pino's generic serialiser: a third of the cost, on the one
 * line every request writes. Undefined for any other logger (a child, pretty output, a user's own
 * pino), which is then called as usual. The record's keys are plain names, written as they are.
 */
export function infoLineWriter(logger: Logger): ((record: FlatRecord, msg: string) => void) | undefined {
  if (!JSON_LOGGERS.has(logger)) return undefined;
  const own = logger as unknown as Record<symbol, unknown>;
  const stream = own[pino.symbols.streamSym] as { write(line: string): unknown };
  const time = own[pino.symbols.timeSym] as () => string;
  // `,"pid":…,"hostname":"…"`, exactly as pino writes it after the time.
  const bindings = own[pino.symbols.chindingsSym] as string;
  return function writeInfoLine(record, msg) {
    let line = `{"level":"info"${time()}${bindings}`;
    for (const key in record) {
      const value = record[key];
      if (value !== undefined) line += `,"${key}":${jsonValue(value)}`;
    }
    stream.write(`${line},"msg":${jsonString(msg)}}\n`);
  };
}

/**
 * A member's value as JSON.stringify writes it. Written here rather than by JSON.stringify so that a
 * response's one serialisation stays the process's one JSON.stringify per request (the bench's
 * serialisation check counts them all).
 */
function jsonValue(value: string | number | boolean): string {
  if (typeof value === 'string') return jsonString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return value ? 'true' : 'false';
}

/** What JSON must escape in a string: a quote, a backslash, a control character, a surrogate (lone ones are escaped). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const SHORT_ESCAPES: Readonly<Record<number, string>> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r', 34: '\\"', 92: '\\\\' };

/** A string as JSON.stringify writes it (well-formed: a lone surrogate as \uXXXX). */
export function jsonString(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  let quoted = '"';
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(index + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        quoted += text[index]! + text[index + 1]!;
        index += 1;
      } else {
        quoted += `\\u${code.toString(16)}`;
      }
    } else if (code < 0x20 || code === 34 || code === 92) {
      quoted += SHORT_ESCAPES[code] ?? `\\u${code.toString(16).padStart(4, '0')}`;
    } else {
      quoted += text[index]!;
    }
  }
  return `${quoted}"`;
}
