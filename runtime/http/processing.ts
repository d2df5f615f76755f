import type { ServerResponse } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import { settledNow, SETTLED } from '../fast-path/sequence.ts';
import { onResponseClose } from './close-listener.ts';

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
 * after `afterMs`, then every `everyMs`, until the final response begins. None is sent while the
 * request's body has not fully arrived: a client still sending is not waiting on the server. A client that waits sees
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
    updates.add(ctx.res as Slotted, threshold);
    return downstream;
  };
}

/** A response with its slot in an UpdateTable, under that table's own symbol. */
type Slotted = ServerResponse & Record<symbol, number | undefined>;

/**
 * The responses still waiting for their final status, each with when its next 102 is due. One timer,
 * armed for the earliest; a response leaves the table when it closes (sent, or the client gone) or
 * when its final response has begun.
 *
 * Two arrays side by side, each response knowing its slot, and a response leaves by the last one
 * moving into its slot: no Map. A Map that gains and loses a response on every request is rebuilt
 * every few dozen requests, and V8 keeps in each table it replaces a link to the next one and the
 * responses it held. Once one of those tables has been promoted to the old generation it is dead but
 * not yet collected, and through that link every later table, and every response with its request,
 * headers and context, survives the young-generation collections and is promoted in turn, until a
 * full collection; then it starts again. On PostgreSQL, where every request comes here, that was a
 * full collection about every second and a fifth of the server's CPU (BENCHMARKS.md).
 */
class UpdateTable {
  readonly #everyMs: number;
  /** The waiting responses; dueAt[i] is when responses[i]'s next 102 is due. */
  readonly #responses: Slotted[] = [];
  readonly #dueAt: number[] = [];
  /** Where a waiting response sits in the two arrays, kept on the response under this table's own key. */
  readonly #slot = Symbol('processingUpdatesSlot');
  #timer: NodeJS.Timeout | undefined;
  #armedFor = Infinity;
  /** One listener for every response: 'close' is emitted once, so nothing needs removing. */
  readonly #forget: (this: Slotted) => void;

  constructor(everyMs: number) {
    this.#everyMs = everyMs;
    const table = this;
    this.#forget = function forgetClosedResponse(this: Slotted) {
      table.#remove(this);
    };
  }

  add(res: Slotted, afterMs: number): void {
    // Already waiting here (the same middleware mounted twice): its first due time stands.
    if (res[this.#slot] !== undefined) return;
    const at = Date.now() + afterMs;
    res[this.#slot] = this.#responses.length;
    this.#responses.push(res);
    this.#dueAt.push(at);
    onResponseClose(res, this.#forget);
    // Under steady load each new entry is due after the one the timer waits for: nothing to do.
    if (at < this.#armedFor) this.#arm(at);
  }

  /** Takes `res` out of the table (nothing when it is not there). */
  #remove(res: Slotted): void {
    const slot = res[this.#slot];
    if (slot !== undefined && this.#responses[slot] === res) this.#removeAt(slot);
  }

  /** Empties a slot: the last entry moves into it. */
  #removeAt(slot: number): void {
    this.#responses[slot]![this.#slot] = undefined;
    const last = this.#responses.length - 1;
    if (slot !== last) {
      const moved = this.#responses[last]!;
      this.#responses[slot] = moved;
      this.#dueAt[slot] = this.#dueAt[last]!;
      moved[this.#slot] = slot;
    }
    this.#responses.pop();
    this.#dueAt.pop();
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
    let index = 0;
    while (index < this.#responses.length) {
      const res = this.#responses[index]!;
      if (res.headersSent || res.writableEnded || res.destroyed) {
        // The last entry moves into this slot: look at the same slot again.
        this.#removeAt(index);
        continue;
      }
      let next = this.#dueAt[index]!;
      if (next <= now) {
        // While the request's own body is still arriving the wait is the client's, not the server's
        // work: no 102 until all of it is here (then the next one due is sent).
        if (res.req.complete) res.writeProcessing();
        next = now + this.#everyMs;
        this.#dueAt[index] = next;
      }
      if (next < earliest) earliest = next;
      index += 1;
    }
    if (earliest !== Infinity) this.#arm(earliest);
  }
}
