import { describe, expect, it } from 'vitest';
import {
  assertIfMatch,
  etagOf,
  formatLastModified,
  matchesIfMatch,
  matchesIfNoneMatch,
  notModifiedSince,
  parseEntityTags,
  parseModifiedSince,
} from '../../../runtime/caching/index.ts';

describe('entity tags', () => {
  it('are the same for the same bytes, as text or as a buffer, and differ for other bytes', () => {
    const text = '{"order_id":1}';
    expect(etagOf(text)).toBe(etagOf(Buffer.from(text)));
    expect(etagOf(text)).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(etagOf(text)).not.toBe(etagOf('{"order_id":2}'));
  });

  it('a header is `*`, or the quoted tags it lists, weak or strong, with the gzip suffix taken off', () => {
    expect(parseEntityTags(' * ')).toBe('*');
    expect(parseEntityTags('"a", W/"b", "c-gzip"')).toEqual([
      { weak: false, opaque: 'a' },
      { weak: true, opaque: 'b' },
      { weak: false, opaque: 'c' },
    ]);
    expect(parseEntityTags('no tags here')).toEqual([]);
    expect(parseEntityTags('')).toEqual([]);
  });

  it('compare by their opaque part whatever form the current tag has (weak, gzip variant)', () => {
    expect(matchesIfNoneMatch('"abc"', 'W/"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"abc"', '"abc-gzip"')).toBe(true);
    expect(matchesIfNoneMatch('"abd"', 'W/"abc"')).toBe(false);
    expect(matchesIfMatch('"abc"', '"abc-gzip"')).toBe(true);
    expect(matchesIfMatch('"ab"', '"abc"')).toBe(false);
    expect(matchesIfNoneMatch('', '"abc"')).toBe(false);
  });

  it('If-Match: none or blank allows the write; another tag is a 412 saying what to do', () => {
    expect(() => assertIfMatch('', '"abc"')).not.toThrow();
    expect(() => assertIfMatch('   ', '"abc"')).not.toThrow();
    expect(() => assertIfMatch('"abc"', '"abc"')).not.toThrow();
    expect(() => assertIfMatch('"old"', '"abc"')).toThrow(
      expect.objectContaining({
        status: 412,
        code: 'precondition_failed',
        message: 'the resource has changed since the If-Match tag was read; GET it again and retry',
      }),
    );
    expect(() => assertIfMatch('W/"abc"', '"abc"')).toThrow(expect.objectContaining({ status: 412 }));
  });
});

describe('times', () => {
  it('If-Modified-Since: ISO 8601 with or without seconds, fractions and offsets, or an HTTP-date; blanks around it ignored', () => {
    const iso = (header: string) => parseModifiedSince(header)?.toISOString();
    expect(iso('2026-11-22T15:40Z')).toBe('2026-11-22T15:40:00.000Z');
    expect(iso('2026-11-22T15:40:05.25Z')).toBe('2026-11-22T15:40:05.250Z');
    expect(iso('2026-11-22T16:40:05+01:00')).toBe('2026-11-22T15:40:05.000Z');
    expect(iso('2026-11-22T14:40:05-01:00')).toBe('2026-11-22T15:40:05.000Z');
    expect(iso('  Sun, 22 Nov 2026 15:40:00 GMT  ')).toBe('2026-11-22T15:40:00.000Z');
  });

  it.each([
    '',
    '   ',
    'x2026-11-22T15:40:00Z',
    '2026-11-22T15:40:00Zx',
    '2026-11-22T15:40:00',
    '2026-11-22T15:40:00.Z',
    '2026-11-22T15:40:00.xZ',
    '2026-11-22T15:40:00+1:00',
    '2026-11-22T15:40:00 01:00',
    '2026-11-22T15:40:00+ab:cd',
    '2026-13-45T15:40:00Z',
    'x Sun, 22 Nov 2026 15:40:00 GMT',
    'Sun, 22 Nov 2026 15:40:00 GMTx',
    'Sun, 22 Nov 2026 15:40:00 UTC',
    '22 Nov 2026 15:40:00 GMT',
  ])('If-Modified-Since %j is no time', (header) => {
    expect(parseModifiedSince(header)).toBeUndefined();
  });

  it('not modified when the resource changed no later than the given second', () => {
    const at = (iso: string) => new Date(iso);
    expect(notModifiedSince(at('2026-11-22T15:40:00.900Z'), at('2026-11-22T15:40:00Z'))).toBe(true);
    expect(notModifiedSince(at('2026-11-22T15:39:59.999Z'), at('2026-11-22T15:40:00Z'))).toBe(true);
    expect(notModifiedSince(at('2026-11-22T15:40:01Z'), at('2026-11-22T15:40:00.999Z'))).toBe(false);
  });

  it('Last-Modified of a stored time only when it is a stored UTC time exactly; other texts are read as times', () => {
    expect(formatLastModified('2026-11-22T15:40:00.5Z')).toBe('2026-11-22T15:40:00Z');
    // Not the store's form: parsed as a time, or no time at all.
    expect(formatLastModified('x2026-11-22T15:40:00Z')).toBeUndefined();
    expect(formatLastModified('2026-11-22T15:40:00Zx')).toBeUndefined();
    expect(formatLastModified('2026-11-22T15:40Z')).toBe('2026-11-22T15:40:00Z');
    expect(formatLastModified('2026-11-22T15:40:00.Z')).toBeUndefined();
  });

  it('Last-Modified of a Date far in the future or past (six-digit years) still has no fraction', () => {
    expect(formatLastModified(new Date(Date.UTC(10_000, 0, 1, 0, 0, 0, 250)))).toBe('+010000-01-01T00:00:00Z');
    expect(formatLastModified(new Date(Date.UTC(-1, 0, 1)))).toBe('-000001-01-01T00:00:00Z');
  });
});
