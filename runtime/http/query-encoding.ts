/**
 * The first query parameter whose name or value is not well-formed percent-encoded UTF-8 (a `%`
 * not followed by two hex digits, or escapes that decode to no UTF-8 character), or undefined when
 * every one is. URLSearchParams, which every reader of a query uses, takes such text leniently: a
 * lone `%` stays a literal `%` and a broken sequence becomes U+FFFD, so `?title=%E2%82` would quietly
 * filter on a title nobody sent. The name is returned decoded where it can be, else as sent.
 */
export function malformedQueryParameter(query: string): string | undefined {
  // Only an escape can be malformed: most queries have none and are not split at all.
  if (!query.includes('%')) return undefined;
  for (const part of query.split('&')) {
    if (!part.includes('%')) continue;
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    const name = formDecoded(rawName);
    if (name === undefined) return rawName;
    if (equals !== -1 && formDecoded(part.slice(equals + 1)) === undefined) return name;
  }
  return undefined;
}

/** Percent-encoded text decoded, or undefined when its escapes are malformed (`%`, `%E2%82`). */
export function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Form-encoded text (a query's: `+` is a space) decoded, or undefined when its escapes are malformed. */
const formDecoded = (text: string) => percentDecoded(text.replaceAll('+', ' '));
