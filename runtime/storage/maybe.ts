/**
 * A value now, or a promise of it. node:sqlite answers at once and PostgreSQL answers later; code that
 * serves both takes a Maybe and waits only when it is a promise, so SQLite's request path stays free
 * of promises (BENCHMARKS.md: a promise per step costs the GET path measurably).
 */
export type Maybe<T> = T | Promise<T>;

/**
 * Logic written once for both engines: a generator that hands each store answer to `wait` with
 * `yield*`. `runFlow` drives it: synchronously as long as every answer is a plain value, and through
 * promises from the first answer that is one.
 *
 * @example
 * const row = runFlow((function* () {
 *   const found = yield* wait(store.find(table, 1));
 *   return found ?? (yield* wait(store.transaction((tx) => tx.insert(table, values))));
 * })());
 */
export type Flow<T> = Generator<unknown, T, unknown>;

/** One store answer inside a Flow: `const row = yield* wait(store.find(table, key))`. */
export function* wait<T>(value: Maybe<T>): Generator<Maybe<T>, T, unknown> {
  return (yield value) as T;
}

/** Runs a Flow to its end: its result at once when nothing it waited for was a promise, else a promise of it. */
export function runFlow<T>(flow: Flow<T>): Maybe<T> {
  return resume(flow, undefined, false);
}

function resume<T>(flow: Flow<T>, input: unknown, failed: boolean): Maybe<T> {
  for (;;) {
    const step = failed ? flow.throw(input) : flow.next(input);
    failed = false;
    if (step.done === true) return step.value;
    const value = step.value;
    if (value instanceof Promise) {
      return value.then(
        (settled: unknown) => resume(flow, settled, false),
        (error: unknown) => resume(flow, error, true),
      );
    }
    input = value;
  }
}

/** `fn(value)` now when value is plain, after it settles when it is a promise. */
export function andThen<T, U>(value: Maybe<T>, fn: (settled: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}

/** Every value at once when none is a promise, else a promise of them all. */
export function allOf<T>(values: readonly Maybe<T>[]): Maybe<T[]> {
  return values.some((value) => value instanceof Promise) ? Promise.all(values) : (values as T[]);
}
