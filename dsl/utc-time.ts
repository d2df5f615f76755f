import { z } from 'zod';

/**
 * ISO 8601 date and time with an offset: `Z`, `±hh`, `±hhmm` or `±hh:mm`; seconds and a fraction of
 * them are optional (`2026-12-02T09:30+02:00`). A time without an offset is refused: it names no
 * instant.
 */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * The instant an ISO 8601 time names, as stored and served: UTC, whole seconds, `Z`
 * (`2026-12-02T07:30:00Z`). A fraction of a second is dropped, as the server's own timestamps drop
 * it, so every stored time has one width and sorts as text in time order. Undefined when the text is
 * not such a time or names a day or an hour that does not exist.
 */
export function utcSeconds(text: string): string | undefined {
  const match = ISO_TIME.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second = '00', , sign, offsetHours = '00', offsetMinutes = '00'] = match;
  const parts = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = parts;
  // Not Date.UTC: it reads the years 0 to 99 as 1900 to 1999, so 0050-06-01 would not come back.
  const back = new Date(0);
  back.setUTCFullYear(y, mo - 1, d);
  back.setUTCHours(h, mi, s, 0);
  const local = back.getTime();
  // Date.UTC rolls 30 February over to March: a date that does not come back unchanged does not exist.
  if (
    back.getUTCFullYear() !== y ||
    back.getUTCMonth() !== mo - 1 ||
    back.getUTCDate() !== d ||
    back.getUTCHours() !== h ||
    back.getUTCMinutes() !== mi ||
    back.getUTCSeconds() !== s
  )
    return undefined;
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined;
  const offsetMs =
    sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  const utc = new Date(local - offsetMs);
  if (Number.isNaN(utc.getTime()) || utc.getUTCFullYear() < 0 || utc.getUTCFullYear() > 9999) return undefined;
  return utc.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The schema of a time field: any ISO 8601 offset in, UTC with whole seconds out (utcSeconds). The
 * OpenAPI documents say `format: date-time`.
 */
export function utcTimeSchema(): z.ZodString {
  return z
    .string()
    .check((context) => {
      if (utcSeconds(context.value) === undefined) {
        context.issues.push({
          code: 'custom',
          input: context.value,
          // Written in the right form, the time itself is what does not exist: say that, not the form.
          message: ISO_TIME.test(context.value)
            ? 'names no instant from year 0000 to 9999 in UTC: a day or an hour that does not exist (2026-02-30, 24:00), an offset past 23:59, or a year beyond them once in UTC'
            : 'must be an ISO 8601 date and time with an offset (Z or ±hh:mm), for example 2026-12-02T09:30:00Z',
        });
      }
    })
    .overwrite((text) => utcSeconds(text) ?? text)
    .meta({ format: 'date-time' });
}
