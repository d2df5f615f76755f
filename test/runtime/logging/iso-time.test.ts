import { describe, expect, it } from 'vitest';
import { cachedIsoTime } from '../../../runtime/logging/iso-time.ts';
import { LineBytes } from '../../../runtime/logging/line-bytes.ts';

describe('cachedIsoTime()', () => {
  it('gives exactly what pino.stdTimeFunctions.isoTime gives, across milliseconds, seconds and days', () => {
    let now = 0;
    const isoTime = cachedIsoTime(() => now);
    const start = Date.UTC(2026, 10, 23, 23, 59, 58, 0);
    // Every millisecond of four seconds, over midnight, then a jump back in time (a clock set back).
    const instants = [
      ...Array.from({ length: 4000 }, (_, index) => start + index),
      start - 86_400_000 + 7,
      Date.UTC(2000, 0, 1, 0, 0, 0, 5),
    ];
    for (const instant of instants) {
      now = instant;
      expect(isoTime()).toBe(`,"time":"${new Date(instant).toISOString()}"`);
    }
  });

  it('reads the real clock by default', () => {
    const before = Date.now();
    const time = Date.parse(cachedIsoTime()().slice(9, -1));
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });

  it("writes into a line's bytes exactly the text it returns, alternating with calls", () => {
    let now = 0;
    const isoTime = cachedIsoTime(() => now);
    const start = Date.UTC(2026, 10, 25, 23, 59, 59, 990);
    for (const instant of [
      ...Array.from({ length: 1200 }, (_, index) => start + index),
      start - 3_000,
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
    ]) {
      now = instant;
      const bytes = new LineBytes(16);
      bytes.ascii('{');
      isoTime.writeTo(bytes);
      expect(bytes.drainText()).toBe(`{${isoTime()}`);
      expect(isoTime()).toBe(`,"time":"${new Date(instant).toISOString()}"`);
    }
  });
});
