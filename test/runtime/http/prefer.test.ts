import { describe, expect, it } from 'vitest';
import { preferencesOf } from '../../../runtime/http/index.ts';

describe('Prefer header (RFC 7240)', () => {
  it.each([
    ['return=minimal', [['return', 'minimal']]],
    ['Return="minimal"', [['return', 'minimal']]],
    [
      'respond-async, wait=10',
      [
        ['respond-async', ''],
        ['wait', '10'],
      ],
    ],
    [
      'return=minimal; foo=bar, handling=strict',
      [
        ['return', 'minimal'],
        ['handling', 'strict'],
      ],
    ],
    ['return=representation, return=minimal', [['return', 'representation']]],
    [' , ,', []],
  ])('%s', (header, want) => {
    expect([...preferencesOf(header)]).toEqual(want);
  });
});
