import { describe, expect, it } from 'vitest';
import { formatLastModified } from '../../../runtime/caching/index.ts';

describe('formatLastModified', () => {
  it('cuts the times the store writes to the second, in ISO 8601 UTC', () => {
    expect(formatLastModified('2026-11-22T15:40:00Z')).toBe('2026-11-22T15:40:00Z');
    expect(formatLastModified('2026-11-22T15:40:00.123Z')).toBe('2026-11-22T15:40:00Z');
    expect(formatLastModified('2026-11-22T15:40:00.123456Z')).toBe('2026-11-22T15:40:00Z');
  });

  it('converts a Date, or a time with an offset, to UTC; anything else is no time', () => {
    expect(formatLastModified(new Date(Date.UTC(2026, 10, 22, 15, 40, 0, 999)))).toBe('2026-11-22T15:40:00Z');
    expect(formatLastModified('2026-11-22T16:40:00+01:00')).toBe('2026-11-22T15:40:00Z');
    expect(formatLastModified('not a time')).toBeUndefined();
    expect(formatLastModified(new Date(Number.NaN))).toBeUndefined();
  });

  it('answers each stored time with its own text, the same time again with the same text, whatever came between', () => {
    const times = [
      '2026-11-22T15:40:00.100Z',
      '2026-11-22T15:40:01Z',
      '2026-11-22T15:40:02Z',
      'not a time',
      '2026-11-22T16:40:00+01:00',
      '2026-11-23T00:00:00.5Z',
    ];
    const expected = [
      '2026-11-22T15:40:00Z',
      '2026-11-22T15:40:01Z',
      '2026-11-22T15:40:02Z',
      undefined,
      '2026-11-22T15:40:00Z',
      '2026-11-23T00:00:00Z',
    ];
    for (let round = 0; round < 3; round += 1) {
      // Each time twice in a row, then the next: a repeat is served from the last one made.
      times.forEach((time, index) => {
        expect(formatLastModified(time)).toBe(expected[index]);
        expect(formatLastModified(time)).toBe(expected[index]);
      });
    }
    // Texts built apart with the same characters are the same time.
    const built = ['2026-11-22', 'T15:40:01Z'].join('');
    expect(formatLastModified(built)).toBe('2026-11-22T15:40:01Z');
  });
});
