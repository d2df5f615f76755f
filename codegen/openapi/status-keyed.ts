/** An element index far past any array V8 would allocate for an object: setting it moves the object's elements to a dictionary. */
const FAR_INDEX = 2 ** 31;

/**
 * An empty object for members keyed by HTTP status ('200', '404'): an operation's responses.
 * V8 stores integer-like keys as elements, and an object filled key by key (or copied with spread
 * or Object.fromEntries) gets them in an array as long as its largest status: some 600 slots, 5 KB,
 * for a dozen members. 16,000 of them, as many as a 1,000-collection document has operations, take
 * 87 MB, all of it for the garbage collector to copy. Begun with a far index, then emptied, the
 * object keeps its statuses in a dictionary sized by what it holds. Its keys, their order and its
 * JSON are those of any object.
 */
export function statusKeyed<T>(): Record<string, T> {
  const keyed: Record<string, T> = {};
  keyed[FAR_INDEX] = undefined as T;
  delete keyed[FAR_INDEX];
  return keyed;
}

/** statusKeyed() holding these members. */
export function statusKeyedOf<T>(...sources: Readonly<Record<string, T>>[]): Record<string, T> {
  return Object.assign(statusKeyed<T>(), ...sources);
}
