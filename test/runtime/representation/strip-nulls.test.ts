import { describe, expect, it } from 'vitest';
import { stripNulls } from '../../../runtime/representation/index.ts';

describe('stripNulls', () => {
  it.each([
    ['top-level null and undefined', { a: 1, b: null, c: undefined }, { a: 1 }],
    ['nested objects', { a: { b: null, c: { d: null, e: 'x' } } }, { a: { c: { e: 'x' } } }],
    ['objects inside arrays', [{ a: null, b: 2 }], [{ b: 2 }]],
    ['a null inside an array is a value', { list: [1, null] }, { list: [1, null] }],
    ['false and zero are values', { a: false, b: 0, c: '' }, { a: false, b: 0, c: '' }],
  ])('%s', (_name, given, want) => {
    expect(stripNulls(given)).toEqual(want);
  });
});
