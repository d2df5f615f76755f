/**
 * Last-Modified as the conventions state it: ISO 8601 UTC to the second (`2026-11-22T15:40:00Z`).
 */
export function formatLastModified(date: Date): string {
  // toISOString() is always YYYY-MM-DDTHH:mm:ss.sssZ for the years a resource can have changed in.
  const iso = date.toISOString();
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
}

/** If-Modified-Since in ISO 8601 or HTTP-date form; undefined when it is neither. */
export function parseModifiedSince(header: string): Date | undefined {
  const text = header.trim();
  if (text === '') return undefined;
  const isIso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text);
  const isHttpDate = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text);
  if (!isIso && !isHttpDate) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Not modified when the resource changed no later than the given time (second precision). */
export function notModifiedSince(lastModified: Date, since: Date): boolean {
  return Math.floor(lastModified.getTime() / 1000) <= Math.floor(since.getTime() / 1000);
}
