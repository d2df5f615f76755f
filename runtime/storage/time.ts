/** ISO 8601 UTC with second precision and the Z designator: `2026-11-22T15:40:00Z`. */
export function isoNow(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
