import type { LineBytes } from './line-bytes.ts';

/** pino's `timestamp` function that cachedIsoTime() makes: its text, or the same written as bytes. */
export interface CachedIsoTime {
  (): string;
  /** Writes what the call returns into a log line's bytes, with no string made for it. */
  writeTo(out: LineBytes): void;
}

/**
 * pino's `timestamp` option with the same output as pino.stdTimeFunctions.isoTime
 * (`,"time":"2026-11-23T20:23:45.123Z"`), made cheaper: the date and time up to the second are
 * formatted once per second and only the milliseconds are added per line. isoTime builds a Date and
 * formats all of it on every line, about 2% of a GET's CPU time in the benchmark.
 * writeTo() puts the same text straight into a line's bytes: the request line, written for every
 * request, has no string to make and read back (infoLineWriter()).
 *
 * @example
 * pino({ timestamp: cachedIsoTime() });
 */
export function cachedIsoTime(now: () => number = Date.now): CachedIsoTime {
  let second = Number.NaN;
  // `,"time":"2026-11-23T20:23:45.`: everything before the milliseconds, as text and as bytes.
  let prefix = '';
  let prefixBytes = Buffer.alloc(0);
  /** The milliseconds of `at`, after moving the prefix on to its second when that changed. */
  const millisecondOf = (at: number): number => {
    const ms = at % 1000;
    const atSecond = at - ms;
    if (atSecond !== second) {
      second = atSecond;
      prefix = `,"time":"${new Date(atSecond).toISOString().slice(0, 20)}`;
      prefixBytes = Buffer.from(prefix, 'latin1');
    }
    return ms;
  };
  const isoTime = function isoTime() {
    const ms = millisecondOf(now());
    return `${prefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
  } as CachedIsoTime;
  isoTime.writeTo = (out: LineBytes) => {
    const ms = millisecondOf(now());
    out.bytes(prefixBytes);
    out.paddedDigits(ms, 3);
    out.ascii('Z"');
  };
  return isoTime;
}
