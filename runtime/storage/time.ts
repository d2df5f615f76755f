/** The second isoNow() last formatted (ms since the epoch, a whole second) and its text. */
let formattedSecond = Number.NaN;
let formattedText = '';

/**
 * ISO 8601 UTC with second precision and the Z designator: `2026-11-22T15:40:00Z`. Without an
 * argument, the current second's text is formatted once and reused until the clock moves on: every
 * write stamps its row, and formatting a Date costs more than the write's own bookkeeping.
 */
export function isoNow(now?: Date): string {
  if (now !== undefined) return isoSeconds(now);
  const ms = Date.now();
  const second = ms - (ms % 1000);
  if (second !== formattedSecond) {
    formattedSecond = second;
    formattedText = isoSeconds(new Date(second));
  }
  return formattedText;
}

function isoSeconds(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
