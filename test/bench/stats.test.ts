import { describe, expect, it } from 'vitest';
import { median, percentileOfSorted, ratio, verdict } from '../../bench/lib/stats.ts';

describe('bench statistics', () => {
  it.each([
    ['odd count', { given: [3, 1, 2], want: 2 }],
    ['even count', { given: [4, 1, 3, 2], want: 2.5 }],
    ['one value', { given: [7], want: 7 }],
    ['unsorted input is not modified', { given: [9, 1, 5], want: 5 }],
  ])('median: %s', (_name, { given, want }) => {
    const copy = [...given];
    expect(median(given)).toBe(want);
    expect(given).toEqual(copy);
  });

  it('median of nothing is NaN', () => {
    expect(median([])).toBeNaN();
  });

  it.each([
    ['p50 of 1..100', { given: 50, want: 50 }],
    ['p99 of 1..100', { given: 99, want: 99 }],
    ['p100 is the largest', { given: 100, want: 100 }],
    ['a tiny p is the smallest', { given: 0.001, want: 1 }],
  ])('percentile by nearest rank: %s', (_name, { given, want }) => {
    const sorted = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentileOfSorted(sorted, given)).toBe(want);
  });

  it('ratio is NaN when a side is missing or the denominator is zero', () => {
    expect(ratio(3, 4)).toBe(0.75);
    expect(ratio(undefined, 4)).toBeNaN();
    expect(ratio(3, 0)).toBeNaN();
  });

  it.each([
    ['at least, met', { value: 0.9, target: 0.85, direction: 'at-least', want: 'pass' }],
    ['at least, missed', { value: 0.8, target: 0.85, direction: 'at-least', want: 'FAIL' }],
    ['at most, met exactly', { value: 5, target: 5, direction: 'at-most', want: 'pass' }],
    ['at most, missed', { value: 5.1, target: 5, direction: 'at-most', want: 'FAIL' }],
    ['not measured', { value: Number.NaN, target: 5, direction: 'at-most', want: 'n/a' }],
  ] as const)('verdict: %s', (_name, { value, target, direction, want }) => {
    expect(verdict(value, target, direction)).toBe(want);
  });
});
