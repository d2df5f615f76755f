/**
 * Leaves out null and undefined members at every depth (conventions: null fields are left out of
 * responses). Arrays keep their length: a null inside an array is a value, not an absent field.
 */
export function stripNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => stripNulls(item)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const result: Record<string, unknown> = {};
    const record = value as Record<string, unknown>;
    // for...in over a plain object (own keys only, per the prototype check) without an array per key.
    for (const key in record) {
      const member = record[key];
      if (member === null || member === undefined) continue;
      result[key] = stripNulls(member);
    }
    return result as T;
  }
  return value;
}
