import { readFileSync } from 'node:fs';

/**
 * What a peer sends when it is given the generated server's response headers (CONVENTION_HEADERS_FILE):
 * the conventions' bytes on the wire, as constants, with none of the work that decides them. The
 * bench captures them from c's GET one (conventionHeadersToCopy()) and hands the file to b (server
 * "h" of the request path) and, under callgrind, to f and o.
 */
export interface ConventionHeaders {
  /** c's headers of a GET one, as [name, value] in the order c sent them. */
  readonly pairs: readonly (readonly [string, string])[];
  /** The same as one object, for a framework that takes its headers that way. */
  readonly all: Readonly<Record<string, string>>;
  /** All but the ETag, for a response whose tag the peer computes itself (its revalidation). */
  readonly withoutTag: Readonly<Record<string, string>>;
}

/** Headers the server's HTTP layer writes for itself (framing, connection, date): not copied. */
const NOT_COPIED = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The headers of one of c's responses that a peer copies in as constants. */
export function conventionHeadersToCopy(headers: readonly (readonly [string, string])[]): [string, string][] {
  return headers.filter(([name]) => !NOT_COPIED.has(name.toLowerCase())).map(([name, value]) => [name, value]);
}

/** The headers named by CONVENTION_HEADERS_FILE (a JSON list of [name, value] pairs), or undefined without it. */
export function conventionHeadersFromEnv(): ConventionHeaders | undefined {
  const file = process.env.CONVENTION_HEADERS_FILE;
  if (file === undefined || file === '') return undefined;
  const pairs = JSON.parse(readFileSync(file, 'utf8')) as [string, string][];
  return {
    pairs,
    all: Object.fromEntries(pairs),
    withoutTag: Object.fromEntries(pairs.filter(([name]) => name.toLowerCase() !== 'etag')),
  };
}

/** A row as c lays it out by default (pretty, two spaces, a final newline). */
export function prettyJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
