import { rememberRecent } from './recent-results.ts';

const STORED_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Last-Modified as the conventions state it: ISO 8601 UTC to the second (`2026-11-22T15:40:00Z`),
 * from a Date or an ISO 8601 string. A UTC string as the store writes it is cut to the second
 * without a Date; undefined when the value is not a time.
 */
export function formatLastModified(changed: Date | string): string | undefined {
  return typeof changed === 'string' ? formattedText(changed) : formattedDate(changed);
}

// A resource read again and again carries the same stored time: its text is found, the same string
// every time, rather than made again (a regular expression, a slice and a concatenation per GET).
const formattedText = rememberRecent((text: string) =>
  STORED_UTC.test(text) ? `${text.slice(0, 19)}Z` : formattedDate(new Date(text)),
);

function formattedDate(date: Date): string | undefined {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) return undefined;
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
