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
 * A handler that finishes synchronously costs nothing here: no timer is armed.
 *
 * @example
 * app.use(processingUpdates({ afterMs: 1000, everyMs: 1000 }));
 */
export function processingUpdates({ afterMs = 1000, everyMs = 1000 }: ProcessingUpdatesOptions = {}): Middleware {
  return function processingUpdatesMiddleware(ctx: Context, next: Next) {
    const downstream: unknown = next();
    if (settledNow(downstream)) return SETTLED;
    const own = (ctx.state as Record<symbol, unknown>)[PROCESSING_AFTER_STATE];
    const threshold = typeof own === 'number' ? own : afterMs;
    if (threshold <= 0 || ctx.req.httpVersionMajor !== 1 || ctx.req.httpVersionMinor < 1) return downstream;
    let interval: NodeJS.Timeout | undefined;
    const send = () => {
      if (ctx.res.headersSent || ctx.res.writableEnded || ctx.res.destroyed) return stop();
      ctx.res.writeProcessing();
    };
    const first = setTimeout(() => {
      send();
      interval = setInterval(send, everyMs);
    }, threshold);
    const stop = () => {
      clearTimeout(first);
      clearInterval(interval);
    };
    // The client going away ends the updates too.
    ctx.res.once('close', stop);
    return (downstream as Promise<unknown>).finally(stop);
  };
}
