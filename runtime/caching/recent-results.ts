/**
 * A pure function of a string remembered for the strings it was last given: most requests repeat
 * the query strings and representations of those just before them, and finding a string in a Map
 * costs a fraction of parsing or hashing it again. The result depends on the string alone, so a
 * remembered one is never stale. Bounded: strings of at most `maxKeyLength` characters (longer ones
 * are computed every time), at most `maxEntries` of them, all forgotten at once when full.
 *
 * @example
 * const tagOf = rememberRecent((text: string) => hash('sha1', text, 'base64url'));
 */
export function rememberRecent<T>(compute: (key: string) => T, { maxEntries = 1000, maxKeyLength = 4096 }: { readonly maxEntries?: number; readonly maxKeyLength?: number } = {}): (key: string) => T {
  const recent = new Map<string, T>();
  return function remembered(key: string): T {
    if (key.length > maxKeyLength) return compute(key);
    const known = recent.get(key);
    if (known !== undefined) return known;
    const result = compute(key);
    if (recent.size >= maxEntries) recent.clear();
    recent.set(key, result);
    return result;
  };
}
