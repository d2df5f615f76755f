import type { DestinationStream } from 'pino';

/** Where a batch goes: pino's synchronous destination (SonicBoom with `sync: true`) or anything alike. */
export interface SyncLineSink {
  write(text: string): unknown;
  flushSync?(): void;
}

/** The batched streams of the process that have lines waiting. */
const unwritten = new Set<BatchedLineStream>();
let exitHookInstalled = false;

/**
 * A log destination that gathers lines and hands them to `sink` in one write: `delayMs` after the
 * first of them (default 50 ms), or at once when they pass `maxPendingChars` (default 64 Ki
 * characters). The request log writes a line per request; written one by one, each was a write(2)
 * to standard output of its own, about a tenth of a GET's CPU time in the benchmark (BENCHMARKS.md,
 * issue 20); a busy server's lines now share one write per few hundred requests.
 *
 * Nothing is reordered and nothing is lost when the process ends: flushSync() (what writePlainLine
 * uses) writes what is pending first, and so does the process's `exit` event, so a line logged just
 * before `process.exit()` or an uncaught exception still reaches the output. A line waits at most
 * `delayMs`; only a process killed outright (SIGKILL) loses the lines of its last `delayMs`.
 */
export class BatchedLineStream implements DestinationStream {
  readonly #sink: SyncLineSink;
  readonly #maxPendingChars: number;
  readonly #delayMs: number;
  // An array joined once per batch: a string grown by `+=` line after line is a rope that the
  // write has to flatten, which cost more than the writes saved (measured under --cpu-prof).
  #pending: string[] = [];
  #pendingChars = 0;
  #scheduled = false;
  readonly #flushWhenDue = () => {
    this.#scheduled = false;
    unwritten.delete(this);
    this.#writePending();
  };

  constructor(sink: SyncLineSink, { maxPendingChars = 64 * 1024, delayMs = 50 }: { readonly maxPendingChars?: number; readonly delayMs?: number } = {}) {
    this.#sink = sink;
    this.#maxPendingChars = maxPendingChars;
    this.#delayMs = delayMs;
  }

  write(line: string): void {
    this.#pending.push(line);
    this.#pendingChars += line.length;
    if (this.#pendingChars >= this.#maxPendingChars) {
      this.#writePending();
      return;
    }
    if (this.#scheduled) return;
    this.#scheduled = true;
    unwritten.add(this);
    installExitHook();
    // Unreferenced: pending lines never keep the process alive; the exit hook writes them.
    setTimeout(this.#flushWhenDue, this.#delayMs).unref();
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
    if (this.#pending.length === 0) return;
    const text = this.#pending.length === 1 ? this.#pending[0]! : this.#pending.join('');
    this.#pending = [];
    this.#pendingChars = 0;
    this.#sink.write(text);
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // On exit no timer runs any more: write what is pending, synchronously.
  process.on('exit', () => {
    for (const stream of unwritten) {
      try {
        stream.flushSync();
      } catch {
        // The output is gone (a closed pipe): nothing is left to write the lines to.
      }
    }
    unwritten.clear();
  });
}
