/** Number formatting for the tables: fixed decimals, thousands grouped, `-` for a missing figure. */
export function formatNumber(value: number | undefined, decimals = 0): string {
  if (value === undefined || !Number.isFinite(value)) return '-';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export function formatRatio(value: number | undefined): string {
  return formatNumber(value, 2);
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
