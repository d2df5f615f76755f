/** Number formatting for the tables: fixed decimals, thousands grouped, `-` for a missing figure. */
export function formatNumber(value: number | undefined, decimals = 0): string {
  if (value === undefined || !Number.isFinite(value)) return '-';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export function formatRatio(value: number | undefined): string {
  return formatNumber(value, 2);
}

/**
 * A ratio compared with a target: two decimals, or three where two would round it onto the target
 * (0.846 against 0.85 reads `0.846`, not a `0.85` marked as failing).
 */
export function formatRatioAgainst(value: number | undefined, target: number): string {
  const short = formatRatio(value);
  return value !== undefined && value !== target && short === formatRatio(target) ? formatNumber(value, 3) : short;
}

export function formatMs(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '-';
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

export function formatMiB(kib: number | undefined): string {
  return kib === undefined || !Number.isFinite(kib) ? '-' : (kib / 1024).toFixed(1);
}

export function formatSeconds(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? '-' : (ms / 1000).toFixed(2);
}

/** A fraction as a whole percentage: 0.123 → `12%`. */
export function formatPercent(fraction: number | undefined): string {
  return fraction === undefined || !Number.isFinite(fraction) ? '-' : `${Math.round(fraction * 100)}%`;
}
