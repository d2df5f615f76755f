import { describe, expect, it } from 'vitest';
import { rememberRecent } from '../../../runtime/caching/recent-results.ts';

describe('rememberRecent()', () => {
  it('computes each string once while it is remembered, and gives the same answer as computing it', () => {
    const computed: string[] = [];
    const upper = rememberRecent((text: string) => {
      computed.push(text);
      return text.toUpperCase();
    });
    expect([upper('a'), upper('b'), upper('a'), upper('a')]).toEqual(['A', 'B', 'A', 'A']);
    expect(computed).toEqual(['a', 'b']);
  });

  it('never remembers more than maxEntries strings, nor any longer than maxKeyLength', () => {
    const computed: string[] = [];
    const length = rememberRecent(
      (text: string) => {
        computed.push(text);
        return text.length;
      },
      { maxEntries: 2, maxKeyLength: 3 },
    );
    length('a');
    length('b');
    // Full: remembering 'c' forgets 'a' and 'b'.
    length('c');
    length('a');
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
    length('long');
    length('long');
    expect(computed.filter((text) => text === 'long')).toHaveLength(2);
    // maxKeyLength itself is remembered (asked again after another, so not as the last string).
    length('abc');
    length('b');
    length('abc');
    expect(computed.filter((text) => text === 'abc')).toHaveLength(1);
  });

  it('remembers no undefined answer: a string without one is computed each time it is asked, even twice in a row', () => {
    const computed: string[] = [];
    const found = rememberRecent((text: string) => {
      computed.push(text);
      return text === 'known' ? 1 : undefined;
    });
    expect([found('missing'), found('missing'), found('known'), found('known'), found('missing')]).toEqual([
      undefined,
      undefined,
      1,
      1,
      undefined,
    ]);
    expect(computed).toEqual(['missing', 'missing', 'known', 'missing']);
  });
});
