import type { ServerResponse } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import { settledNow, SETTLED } from '../routing/sequence.ts';

export interface ProcessingUpdatesOptions {
  /**
   * How long a request may run before the first `102 Processing` is sent, in ms. Default 1000;
   * 0 sends none. An operation can set its own (ctx.state[PROCESSING_AFTER_STATE], which a custom
   * service operation's `processingAfterMs` sets).
   */
  readonly afterMs?: number;
  /** How often another 102 follows while the request still runs, in ms. Default 1000. */
  readonly everyMs?: number;
}

/** The ctx.state key where an operation leaves its own threshold for the first 102, in ms. */
export const PROCESSING_AFTER_STATE = Symbol('processingAfterMs');

/**
 * Sends `102 Processing` interim responses while a request's handler is still running: the first
 * after `afterMs`, then every `everyMs`, until the final response begins. A client that waits sees
 * the server is working on it (and no idle timeout of a proxy cuts the connection); one that ignores
 * interim responses sees only the final one. HTTP/1.0 clients get none (they cannot read 1xx).
 *
 * What a request costs here: nothing when its handler finishes synchronously; otherwise an entry in
 * a table of waiting responses and a 'close' listener shared by all of them. One timer serves the
 * whole table, armed for the earliest update due: no timer, closure or promise per request (on
 * PostgreSQL every request is asynchronous; BENCHMARKS.md).
 *
 * @example
 * app.use(processingUpdates({ afterMs: 1000, everyMs: 1000 }));
 */
export function processingUpdates({ afterMs = 1000, everyMs = 1000 }: ProcessingUpdatesOptions = {}): Middleware {
  const updates = new UpdateTable(everyMs);
  return function processingUpdatesMiddleware(ctx: Context, next: Next) {
    const downstream: unknown = next();
    if (settledNow(downstream)) return SETTLED;
    const own = (ctx.state as Record<symbol, unknown>)[PROCESSING_AFTER_STATE];
    const threshold = typeof own === 'number' ? own : afterMs;
    if (threshold <= 0 || ctx.req.httpVersionMajor !== 1 || ctx.req.httpVersionMinor < 1) return downstream;
    updates.add(ctx.res, threshold);
    return downstream;
  };
}

/**
 * The responses still waiting for their final status, each with when its next 102 is due. One timer,
 * armed for the earliest; a response leaves the table when it closes (sent, or the client gone) or
 * when its final response has begun.
 */
class UpdateTable {
  readonly #everyMs: number;
  readonly #due = new Map<ServerResponse, number>();
  #timer: NodeJS.Timeout | undefined;
  #armedFor = Infinity;
  /** One listener for every response: 'close' is emitted once, so nothing needs removing. */
  readonly #forget: (this: ServerResponse) => void;

  constructor(everyMs: number) {
    this.#everyMs = everyMs;
    const due = this.#due;
    this.#forget = function forgetClosedResponse(this: ServerResponse) {
      due.delete(this);
    };
  }

  add(res: ServerResponse, afterMs: number): void {
    const at = Date.now() + afterMs;
    this.#due.set(res, at);
    res.on('close', this.#forget);
    // Under steady load each new entry is due after the one the timer waits for: nothing to do.
    if (at < this.#armedFor) this.#arm(at);
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#armedFor = at;
    this.#timer = setTimeout(() => this.#tick(), Math.max(0, at - Date.now()));
    // The requests in flight keep the process alive, not this timer.
    this.#timer.unref();
  }

  #tick(): void {
    this.#timer = undefined;
    this.#armedFor = Infinity;
    const now = Date.now();
    let earliest = Infinity;
    for (const [res, at] of this.#due) {
      if (res.headersSent || res.writableEnded || res.destroyed) {
        this.#due.delete(res);
        continue;
      }
      let next = at;
      if (at <= now) {
        res.writeProcessing();
        next = now + this.#everyMs;
        this.#due.set(res, next);
      }
      if (next < earliest) earliest = next;
    }
    if (earliest !== Infinity) this.#arm(earliest);
  }
}
