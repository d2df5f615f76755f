/**
 * Every SQL text the store prepares or sends, so the test reads the plan of the very statement the
 * store ran, not one written again here.
 */
export function recording<T extends object>(target: T, method: 'prepare' | 'query', seen: string[]): T {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object) as unknown;
      if (property === method) {
        return (first: unknown, ...rest: unknown[]) => {
          const text = typeof first === 'string' ? first : (first as { text?: string }).text;
          if (text !== undefined) seen.push(text);
          return (value as (...args: unknown[]) => unknown).call(object, first, ...rest);
        };
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}
