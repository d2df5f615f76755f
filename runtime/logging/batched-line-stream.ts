import type { DestinationStream } from 'pino';
import { LineBytes } from './line-bytes.ts';

/**
 * Where a batch goes, as UTF-8 bytes: pino's synchronous destination in buffer mode
 * (`pino.destination({ dest: 1, sync: true, contentMode: 'buffer' })`) or anything alike. The bytes
 * are lent: write() has consumed them when it returns, since the stream writes its next batch into
 * the same memory. pino's synchronous destination does: it writes them whole before it returns
 * (waiting out a full pipe), or drops them once the output is gone (EPIPE).
 */
export interface SyncLineSink {
  write(bytes: Buffer): unknown;
  flushSync?(): void;
}

/** The batched streams of the process that have lines waiting. */
const unwritten = new Set<BatchedLineStream>();
let exitHookInstalled = false;

/**
 * A log destination that gathers lines and hands them to `sink` in one write: `delayMs` after the
 * first of them (default 50 ms), or at once when they pass `maxPendingBytes` (default 64 KiB).
 * The request log writes a line per request; written one by one, each was a write(2) to standard
 * output of its own, about a tenth of a GET's CPU time in the benchmark (BENCHMARKS.md);
 * a busy server's lines now share one write per few hundred requests. Lines are kept as UTF-8 bytes
 * from the start: a string line is encoded once on arrival, and a writer that has the stream's
 * `lineBytes()` encodes its line there itself, with no string at all (the request log's line).
 *
 * Nothing is reordered and nothing is lost when the process ends: flushSync() (what writePlainLine
 * uses) writes what is pending first, and so does the process's `exit` event, so a line logged just
 * before `process.exit()` or an uncaught exception still reaches the output. A line waits at most
 * `delayMs`; only a process killed outright (SIGKILL) loses the lines of its last `delayMs`.
 */
export class BatchedLineStream implements DestinationStream {
  readonly #sink: SyncLineSink;
  readonly #maxPendingBytes: number;
  readonly #delayMs: number;
  readonly #pending: LineBytes;
  #scheduled = false;
  readonly #flushWhenDue = () => {
    this.#scheduled = false;
    unwritten.delete(this);
    this.#writePending();
  };

  constructor(
    sink: SyncLineSink,
    {
      maxPendingBytes = 64 * 1024,
      delayMs = 50,
    }: { readonly maxPendingBytes?: number; readonly delayMs?: number } = {},
  ) {
    this.#sink = sink;
    this.#maxPendingBytes = maxPendingBytes;
    this.#delayMs = delayMs;
    // Room for a full batch and the line that passes the bound, so the buffer rarely grows.
    this.#pending = new LineBytes(maxPendingBytes + 4 * 1024);
  }

  /** A line of text (pino's serialised record, a plain line): encoded now, written with its batch. */
  write(line: string): void {
    this.#pending.text(line);
    this.lineWritten();
  }

  /**
   * Where the next line can be encoded directly: write a whole line (its newline included) into it,
   * then call lineWritten(). Nothing else may write to the stream in between.
   */
  lineBytes(): LineBytes {
    return this.#pending;
  }

  /** Schedules (or, past the bound, makes) the write of the line just added through lineBytes(). */
  lineWritten(): void {
    if (this.#pending.length >= this.#maxPendingBytes) {
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
    this.#pending.drain(this.#writeToSink);
  }

  readonly #writeToSink = (bytes: Buffer) => {
    this.#sink.write(bytes);
  };
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
