import type { Context, Middleware, Next } from 'koa';
import { serviceUnavailable } from '../errors/index.ts';

/**
 * Tracks requests in flight and, once draining starts, refuses new ones with 503 (and
 * `Connection: close`) while the ones already running finish.
 */
export class RequestDrain {
  #inFlight = 0;
  #draining = false;
  #idle: (() => void)[] = [];

  get draining(): boolean {
    return this.#draining;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Mount outermost-but-one (inside the error renderer) so the 503 gets the error body. */
  middleware(): Middleware {
    const drain = this;
    const closeIfDraining = (ctx: Context) => {
      // Responses finishing during a drain close their connection, so keep-alive clients reconnect elsewhere.
      if (drain.#draining) ctx.set('Connection', 'close');
    };
    return function drainMiddleware(ctx: Context, next: Next) {
      if (drain.#draining) {
        ctx.set('Connection', 'close');
        throw serviceUnavailable('the server is shutting down; retry shortly');
      }
      drain.#inFlight += 1;
      // Counted until the response is fully written (or the client goes away), not merely until the
      // middleware returns: Koa writes the body after the middleware chain has finished.
      ctx.res.once('close', () => {
        drain.#inFlight -= 1;
        if (drain.#inFlight === 0) drain.#wake();
      });
      return next().then(() => closeIfDraining(ctx));
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
