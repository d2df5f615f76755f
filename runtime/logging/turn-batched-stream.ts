import type { DestinationStream } from 'pino';

/** Where a batch goes: pino's synchronous destination (SonicBoom with `sync: true`) or anything alike. */
export interface SyncLineSink {
  write(text: string): unknown;
  flushSync?(): void;
}

/** Lines waiting for the end of the event loop's turn, in every batched stream of the process. */
const unwritten = new Set<TurnBatchedStream>();
let exitHookInstalled = false;

/**
 * A log destination that gathers the lines written during one turn of the event loop and hands them
 * to `sink` in one write when the turn ends (setImmediate), or at once past `maxPendingChars`. The
 * request log writes a line per request; written one by one, each was a write(2) to standard output
 * of its own, about a sixth of a GET's CPU time in the benchmark (BENCHMARKS.md, issue 20). A busy
 * server answers several requests per turn, and their lines now share one write.
 *
 * Nothing is reordered and nothing waits longer than the turn it was logged in: flushSync() (what
 * writePlainLine uses) writes what is pending first, and so does the process's `exit` event, so a
 * line logged just before `process.exit()` or an uncaught exception still reaches the output. Only a
 * process killed outright (SIGKILL) loses the lines of its last turn.
 */
export class TurnBatchedStream implements DestinationStream {
  readonly #sink: SyncLineSink;
  readonly #maxPendingChars: number;
  #pending = '';
  #scheduled = false;
  readonly #flushAtTurnEnd = () => {
    this.#scheduled = false;
    unwritten.delete(this);
    this.#writePending();
  };

  constructor(sink: SyncLineSink, { maxPendingChars = 64 * 1024 }: { readonly maxPendingChars?: number } = {}) {
    this.#sink = sink;
    this.#maxPendingChars = maxPendingChars;
  }

  write(line: string): void {
    this.#pending += line;
    if (this.#pending.length >= this.#maxPendingChars) {
      this.#writePending();
      return;
    }
    if (this.#scheduled) return;
    this.#scheduled = true;
    unwritten.add(this);
    installExitHook();
    setImmediate(this.#flushAtTurnEnd);
  }

  /** Writes every pending line now, then asks the sink to flush its own buffer. */
  flushSync(): void {
    this.#writePending();
    this.#sink.flushSync?.();
  }

  /** pino's logger.flush(callback). */
  flush(callback?: (error?: Error) => void): void {
    try {
      this.flushSync();
    } catch (error) {
      callback?.(error as Error);
      return;
    }
    callback?.();
  }

  #writePending(): void {
    if (this.#pending === '') return;
    const text = this.#pending;
    this.#pending = '';
    this.#sink.write(text);
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // On exit no setImmediate runs any more: write what the last turn logged, synchronously.
  process.on('exit', () => {
    for (const stream of unwritten) stream.flushSync();
    unwritten.clear();
  });
}
