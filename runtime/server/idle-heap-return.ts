import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What the check reads of the requests: how many are in flight now, and how many have started in all. */
export interface RequestActivity {
  readonly inFlight: number;
  readonly started: number;
}

export interface IdleHeapReturnOptions {
  /** The server's requests (RequestDrain has both counts). */
  readonly activity: RequestActivity;
  /** How often the heap is checked (HEAP_RETURN_INTERVAL_MS). */
  readonly everyMs: number;
  /** The most requests a second, since the previous check, under which the server counts as quiet. Default 20. */
  readonly quietRequestsPerSecond?: number;
  /** Growth of the heap and its buffers, at any check since the last collection made here, that is worth one. Default 32 MiB. */
  readonly growthBytes?: number;
  /** The bytes the heap holds from the system, with its buffers. Default: V8's heap statistics. */
  readonly heapBytes?: () => number;
  /** One full collection. Default: V8's own, as `--expose-gc` gives it. */
  readonly collect?: () => void;
}

// Not less: a collection made here can also shrink V8's young generation (16 MiB back to 1) and drop
// compiled code, so the requests after it cost more until both have grown back, for seconds. After a
// burst of large pages that is a fair price for the hundreds of MiB returned; after an ordinary burst,
// whose heap grows 10 to 20 MiB, it is not (bench/HISTORY.md).
export const DEFAULT_HEAP_GROWTH_BYTES = 32 * 1024 * 1024;
/** A load balancer's health checks and a trickle of calls: the traffic of a server that is otherwise waiting. */
export const DEFAULT_QUIET_REQUESTS_PER_SECOND = 20;

/** The committed heap and the buffers it holds outside it (response bodies, SQLite's values as Buffers). */
const committedHeapBytes = (): number => {
  const heap = getHeapStatistics();
  return heap.total_heap_size + heap.external_memory;
};

/**
 * V8's full collection, the function `--expose-gc` puts on the global object: taken from a context
 * made while the flag is on (then turned off again), so the process's own global gets no `gc`.
 */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Returns the memory a burst grew to the system once the server is quiet again. V8 collects garbage
 * when JavaScript allocates: a server that has just sent a few large pages and then answers only
 * health checks allocates next to nothing, so the garbage of those pages (hundreds of MiB) stays in
 * its heap, resident, and V8's own idle reducer does not act under Node. Every `everyMs`, when fewer
 * than `quietRequestsPerSecond` requests a second started since the previous check, none is in
 * flight and the heap has been, at any check since the last collection made here, more than
 * `growthBytes` larger than that collection left it, one full collection is made: a pause of a few milliseconds to a few hundred, taken when at most a
 * health check may be waiting. Under load it never runs; V8 collects as usual then. Returns a
 * function that stops the checks.
 */
export function returnHeapWhenIdle({
  activity,
  everyMs,
  quietRequestsPerSecond = DEFAULT_QUIET_REQUESTS_PER_SECOND,
  growthBytes = DEFAULT_HEAP_GROWTH_BYTES,
  heapBytes = committedHeapBytes,
  collect,
}: IdleHeapReturnOptions): () => void {
  let collectNow = collect;
  let settledBytes = heapBytes();
  // The largest the heap was at any check since the last collection made here: V8's own collections
  // during a burst shrink it again, but they leave the garbage of its last moments (large strings of
  // rows, tens of MiB) for a collection that, once the server is quiet, only this one makes.
  let peakBytes = settledBytes;
  let startedBefore = activity.started;
  const quietRequests = (quietRequestsPerSecond * everyMs) / 1000;
  const check = () => {
    const started = activity.started;
    const quiet = started - startedBefore < quietRequests && activity.inFlight === 0;
    startedBefore = started;
    peakBytes = Math.max(peakBytes, heapBytes());
    if (!quiet || peakBytes - settledBytes <= growthBytes) return;
    collectNow ??= fullCollection();
    collectNow();
    settledBytes = peakBytes = heapBytes();
  };
  const timer = setInterval(check, everyMs);
  // The checks never keep the process alive on their own.
  timer.unref();
  return () => clearInterval(timer);
}
