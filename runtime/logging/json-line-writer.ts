import { pino, type Logger } from 'pino';
import type { CachedIsoTime } from './iso-time.ts';
import { LineBytes } from './line-bytes.ts';

/** Loggers made by createLogger() in JSON format: their lines have a layout this module can write itself. */
const JSON_LOGGERS = new WeakSet<Logger>();

/** Remembers that `logger` writes createLogger()'s JSON layout (called by createLogger only). */
export function markJsonLogger(logger: Logger): Logger {
  JSON_LOGGERS.add(logger);
  return logger;
}

/**
 * A member's name, made once (memberKey()): a plain name, and the `,"name":` a JSON line writes
 * before its value, already encoded, so that a line's dozen members cost no lookup of their
 * prefixes, and copying their bytes costs fewer instructions than encoding the text for every line.
 */
export interface MemberKey {
  readonly name: string;
  readonly jsonPrefix: Uint8Array;
}

/** The fixed pieces that end every line, encoded once. */
const MSG_PREFIX = Buffer.from(',"msg":', 'latin1');
const LINE_END = Buffer.from('}\n', 'latin1');

/** Names a JSON line can write as they are: no quote, backslash or control character to escape. */
const PLAIN_NAME = /^[A-Za-z0-9_]+$/;

/** A member key for `name`, a plain name (letters, digits and `_`), made once and kept by its caller. */
export function memberKey(name: string): MemberKey {
  if (!PLAIN_NAME.test(name)) throw new Error(`a log member's name is letters, digits and _: ${JSON.stringify(name)}`);
  return Object.freeze({ name, jsonPrefix: Buffer.from(`,"${name}":`, 'latin1') });
}

/**
 * Where the members of a flat log record go, in order: into the bytes of a JSON line
 * (infoLineWriter()), or into a record object for pino (RecordObject). A record described once
 * through this reaches either the same way.
 */
export interface RecordMembers {
  string(key: MemberKey, value: string): void;
  number(key: MemberKey, value: number): void;
  boolean(key: MemberKey, value: boolean): void;
}

/** A flat log record as an object, for `logger.info(record, msg)`. */
export class RecordObject implements RecordMembers {
  readonly record: Record<string, string | number | boolean> = {};
  string(key: MemberKey, value: string): void {
    this.record[key.name] = value;
  }
  number(key: MemberKey, value: number): void {
    this.record[key.name] = value;
  }
  boolean(key: MemberKey, value: boolean): void {
    this.record[key.name] = value;
  }
}

/** Writes one `logger.info(record, msg)` line: open() it, give the members, close() it with the msg. */
export interface InfoLineWriter {
  /** Starts the line (level, time, pid and hostname) and returns where its members go. */
  open(): RecordMembers;
  /** Ends the line with its msg and hands it to the logger's output. */
  close(msg: string): void;
}

/** What a BatchedLineStream offers: its pending bytes, to encode a line in place. */
interface LineBytesStream {
  write(line: string): unknown;
  lineBytes?(): LineBytes;
  lineWritten?(): void;
}

/**
 * For a logger made by createLogger() in JSON format, a writer of `logger.info(record, msg)`'s
 * line byte for byte (level, time, pid and hostname, the members in order, msg), encoded here in
 * one pass instead of by pino's generic serialiser. On createLogger()'s own output (a
 * BatchedLineStream) the line is encoded straight into the batch's bytes, with no string made;
 * on any other output it is handed over as one string. Undefined for any other logger (a child,
 * pretty output, a user's own pino), which is then called as usual.
 */
export function infoLineWriter(logger: Logger): InfoLineWriter | undefined {
  if (!JSON_LOGGERS.has(logger)) return undefined;
  const own = logger as unknown as Record<symbol, unknown>;
  const stream = own[pino.symbols.streamSym] as LineBytesStream;
  const time = own[pino.symbols.timeSym] as (() => string) & Partial<Pick<CachedIsoTime, 'writeTo'>>;
  // createLogger()'s own timestamp writes itself into the bytes; any other is called for its text.
  const writeTime = typeof time.writeTo === 'function' ? time.writeTo : (out: LineBytes) => out.ascii(time());
  const level = Buffer.from('{"level":"info"');
  // `,"pid":…,"hostname":"…"`, exactly as pino writes it after the time.
  const bindings = Buffer.from(own[pino.symbols.chindingsSym] as string);
  const inPlace = typeof stream.lineBytes === 'function' && typeof stream.lineWritten === 'function';
  const ownBytes = inPlace ? undefined : new LineBytes(1024);
  const members = new JsonMembers();
  return {
    open() {
      const out = ownBytes ?? stream.lineBytes!();
      out.bytes(level);
      writeTime(out);
      out.bytes(bindings);
      members.out = out;
      return members;
    },
    close(msg) {
      const out = members.out!;
      out.bytes(MSG_PREFIX);
      out.jsonString(msg);
      out.bytes(LINE_END);
      members.out = undefined;
      if (ownBytes === undefined) stream.lineWritten!();
      else stream.write(ownBytes.drainText());
    },
  };
}

/** A line's members as JSON, each `,"key":value`. */
class JsonMembers implements RecordMembers {
  out: LineBytes | undefined;
  string(key: MemberKey, value: string): void {
    this.#key(key).jsonString(value);
  }
  number(key: MemberKey, value: number): void {
    this.#key(key).jsonNumber(value);
  }
  boolean(key: MemberKey, value: boolean): void {
    this.#key(key).ascii(value ? 'true' : 'false');
  }
  #key(key: MemberKey): LineBytes {
    const out = this.out!;
    out.bytes(key.jsonPrefix);
    return out;
  }
}
