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
export function rememberRecent<T>(
  compute: (key: string) => T,
  { maxEntries = 1000, maxKeyLength = 4096 }: { readonly maxEntries?: number; readonly maxKeyLength?: number } = {},
): (key: string) => T {
  const recent = new Map<string, T>();
  // The string asked for last, and its result: most often asked again at once (the same resource,
  // the same client), and then found by comparing it, without hashing it for the Map.
  let lastKey: string | undefined;
  let lastResult: T | undefined;
  return function remembered(key: string): T {
    if (key === lastKey) return lastResult as T;
    if (key.length > maxKeyLength) return compute(key);
    let result = recent.get(key);
    if (result === undefined) {
      result = compute(key);
      if (recent.size >= maxEntries) recent.clear();
      recent.set(key, result);
    }
    if (result !== undefined) {
      lastKey = key;
      lastResult = result;
    }
    return result;
  };
}
