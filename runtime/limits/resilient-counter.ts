import type { CallCount, CallCounter } from './call-counter.ts';

export interface ResilientCounterOptions {
  /** The shared counter (Redis). */
  readonly shared: CallCounter;
  /** Counts while the shared one cannot answer: this process's memory. */
  readonly fallback: CallCounter;
  /** What is counted, for the log lines (`Redis call-limit counters`). */
  readonly name: string;
  /** Where the outage and the recovery are written, once each. Default console.error. */
  readonly log?: (line: string) => void;
}

/**
 * A shared counter that never stops the service: when the shared store fails (unreachable, timed out),
 * the call is counted in this process's memory instead and served within that per-process limit, so
 * requests go on being answered while each instance holds the limit on its own. The outage is logged
 * once when it starts and once when the shared store answers again, never per request.
 */
export function resilientCounter({
  shared,
  fallback,
  name,
  log = (line) => console.error(line),
}: ResilientCounterOptions): CallCounter {
  let down = false;
  const fallBack = (key: string, error: unknown): CallCount | Promise<CallCount> => {
    if (!down) {
      down = true;
      log(
        `${name} unavailable (${(error as Error).message}): counting in this process's memory until they answer again`,
      );
    }
    return fallback.consume(key);
  };
  return {
    consume(key) {
      let pending: CallCount | Promise<CallCount>;
      try {
        pending = shared.consume(key);
      } catch (error) {
        return fallBack(key, error);
      }
      // Counted at once (a batch the shared store granted earlier): no promise added.
      if (!(pending instanceof Promise)) return pending;
      return pending.then(
        (count) => {
          if (down) {
            down = false;
            log(`${name} answer again: shared counting resumed`);
          }
          return count;
        },
        (error: unknown) => fallBack(key, error),
      );
    },
  };
}
