import type { Context, Middleware, Next } from 'koa';
import { serviceUnavailable } from '../errors/index.ts';
import { settledNow, SETTLED } from '../fast-path/sequence.ts';
import { onResponseClose } from './close-listener.ts';
import { setResponseHeader } from './headers.ts';

/**
 * Tracks requests in flight and, once draining starts, refuses new ones with 503 (and
 * `Connection: close`) while the ones already running finish.
 */
export class RequestDrain {
  #inFlight = 0;
  #started = 0;
  #draining = false;
  #idle: (() => void)[] = [];

  get draining(): boolean {
    return this.#draining;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Requests that have started since the server did, in all (whoever watches for a quiet server compares two readings). */
  get started(): number {
    return this.#started;
  }

  /** Mount outermost-but-one (inside the error renderer) so the 503 gets the error body. */
  middleware(): Middleware {
    const drain = this;
    const closeIfDraining = (ctx: Context) => {
      // Responses finishing during a drain close their connection, so keep-alive clients reconnect elsewhere.
      if (drain.#draining) setResponseHeader(ctx, 'Connection', 'close');
    };
    // One listener for every response: a response emits 'close' once, and is dropped after it, so
    // nothing needs removing, and no closure or once() wrapper is made per request.
    const responseClosed = () => {
      drain.#inFlight -= 1;
      if (drain.#inFlight === 0 && drain.#idle.length > 0) drain.#wake();
    };
    return function drainMiddleware(ctx: Context, next: Next) {
      if (drain.#draining) {
        setResponseHeader(ctx, 'Connection', 'close');
        throw serviceUnavailable('the server is shutting down; retry shortly');
      }
      drain.#inFlight += 1;
      drain.#started += 1;
      // Counted until the response is fully written (or the client goes away), not merely until the
      // middleware returns: Koa writes the body after the middleware chain has finished.
      onResponseClose(ctx.res, responseClosed);
      const downstream: unknown = next();
      // Under sequence() a synchronous request comes back settled: no promise needed to follow it.
      if (!settledNow(downstream)) return (downstream as Promise<unknown>).then(() => closeIfDraining(ctx));
      closeIfDraining(ctx);
      return SETTLED;
    };
  }

  /** Starts draining; resolves when no request is in flight. */
  drain(): Promise<void> {
    this.#draining = true;
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #wake(): void {
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}
