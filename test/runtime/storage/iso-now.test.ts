import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoNow } from '../../../runtime/storage/index.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('isoNow()', () => {
  it('gives the current second, and the next one as soon as the clock reaches it', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-23T23:59:59.998Z') });
    expect(isoNow()).toBe('2026-11-23T23:59:59Z');
    vi.setSystemTime(Date.parse('2026-11-23T23:59:59.999Z'));
    expect(isoNow()).toBe('2026-11-23T23:59:59Z');
    vi.setSystemTime(Date.parse('2026-11-24T00:00:00.000Z'));
    expect(isoNow()).toBe('2026-11-24T00:00:00Z');
    // A clock set back (NTP) is followed too.
    vi.setSystemTime(Date.parse('2026-11-23T12:00:00.500Z'));
    expect(isoNow()).toBe('2026-11-23T12:00:00Z');
  });

  it('formats a given date to the second', () => {
    expect(isoNow(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05Z');
  });
});
