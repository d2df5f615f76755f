import { describe, expect, it } from 'vitest';
import { batchedUuid } from '../../../runtime/logging/uuid-batch.ts';

/** RFC 9562's version 4 layout: version nibble 4, variant bits 10 (8, 9, a or b). */
const VERSION_4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('batchedUuid()', () => {
  it('gives version 4 UUIDs, all different, across several batches', () => {
    const ids = Array.from({ length: 2000 }, () => batchedUuid());
    for (const id of ids) expect(id).toMatch(VERSION_4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('spreads its randomness over every digit that is not fixed by the layout', () => {
    // With 4,000 ids each free hex position shows all sixteen digits; a digit stuck at one value
    // (an offset written twice, a byte never filled) would show one.
    const ids = Array.from({ length: 4000 }, () => batchedUuid());
    for (let position = 0; position < 36; position += 1) {
      const digits = new Set(ids.map((id) => id[position]));
      if ([8, 13, 18, 23].includes(position)) expect([...digits]).toEqual(['-']);
      else if (position === 14) expect([...digits]).toEqual(['4']);
      else if (position === 19) expect([...digits].sort()).toEqual(['8', '9', 'a', 'b']);
      else expect(digits.size).toBe(16);
    }
  });
});
