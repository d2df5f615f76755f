/** The middle value (mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** How far apart the extremes of `values` lie, as a fraction of `middle` (their median): (highest − lowest) / middle. */
export function spreadAround(values: readonly number[], middle: number): number {
  return (Math.max(...values) - Math.min(...values)) / middle;
}

/** numerator / denominator, or NaN when either is missing or the denominator is zero. */
export function ratio(numerator: number | undefined, denominator: number | undefined): number {
  if (numerator === undefined || denominator === undefined || denominator === 0) return Number.NaN;
  return numerator / denominator;
}

/** A pass/fail mark for a figure against a target; `n/a` when the figure could not be measured. */
export function verdict(value: number, target: number, direction: 'at-least' | 'at-most'): 'pass' | 'FAIL' | 'n/a' {
  if (!Number.isFinite(value)) return 'n/a';
  return (direction === 'at-least' ? value >= target : value <= target) ? 'pass' : 'FAIL';
}

/** The p-th percentile (0 < p <= 100) by nearest rank, of values sorted ascending; NaN for none. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
