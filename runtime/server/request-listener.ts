import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import { settledNow, SETTLED } from '../fast-path/sequence.ts';
import { directContextAccessors } from './direct-context-accessors.ts';

/** Statuses whose response never has a body (Koa strips it the same way); compared, not looked up in a Set, on every response. */
const isEmptyStatus = (status: number) => status === 204 || status === 205 || status === 304;

/** The `next` of the app's outermost middleware: nothing follows it. */
const settledNext = () => SETTLED;

/**
 * What runs the synchronous part of each request's handling, as it has just arrived: a store that lets
 * the reads made then share one snapshot per event-loop turn (the SQLite store) offers it.
 */
export interface ArrivalHandling {
  handleArrival?<A, B, T>(handle: (a: A, b: B) => T, a: A, b: B): T;
}

export interface RequestListenerOptions {
  /** Runs each request's synchronous handling (ResourceStore.handleArrival). Default: none, the middleware is called as it is. */
  readonly arrivals?: ArrivalHandling;
}

/** What Koa's own handleRequest is, on every Koa 2 and 3 application; not in @types/koa. */
type HandleRequest = (ctx: Context, run: (ctx: Context) => Promise<unknown>) => Promise<unknown>;

/**
 * A node:http request listener for a Koa app: `app.callback()` with the same result for every
 * request, minus Koa's fixed cost on the common one. When the middleware has finished and left a
 * string or Buffer body, or an empty status (204, 205, 304), the response is sent at once, with no
 * finish listener on the socket; a middleware that finishes synchronously (mount it with sequence()
 * and checks() for that) needs no promise or turn of the microtask queue either. Any other response
 * (a stream or object body, HEAD, a bare status, `ctx.respond = false`) is handed, with its status,
 * to Koa's own request handling, which answers as app.callback() would. A middleware that rejects
 * gets Koa's ctx.onerror(), as with app.callback().
 *
 * With `arrivals` (the API's store), the middleware's synchronous part runs under its handleArrival():
 * on a SQLite file, the reads it makes share one snapshot with those of the other requests of the same
 * turn (storage/sqlite/turn-snapshot.ts).
 *
 * It gives the app's context its own accessors for Koa's most used delegated properties
 * (directContextAccessors(): the same results, without one shared megamorphic getter).
 *
 * The one difference: a socket error before a string or Buffer body has been written is not
 * reported on the app's `error` event (the request log marks the response as aborted).
 *
 * @example
 * createServer(requestListener(app)).listen(3000);
 */
export function requestListener(
  app: Koa,
  { arrivals }: RequestListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const middleware: Middleware = app.middleware.length === 1 ? app.middleware[0]! : compose(app.middleware);
  // As app.callback(): without a listener of its own, the app logs its errors to stderr.
  if (app.listenerCount('error') === 0) app.on('error', app.onerror);
  const handleRequest = (app as unknown as { handleRequest: HandleRequest }).handleRequest.bind(app);
  // ctx.method, ctx.status, ctx.body…: Koa's delegation, without its one megamorphic getter.
  directContextAccessors(app);
  const arrival = arrivals?.handleArrival === undefined ? undefined : arrivals;
  return function handleKoaRequest(req: IncomingMessage, res: ServerResponse) {
    const ctx = app.createContext(req, res);
    res.statusCode = 404;
    let result: unknown;
    try {
      // The request has just arrived: its synchronous reads may share the turn's SQLite snapshot.
      result =
        arrival === undefined ? middleware(ctx, settledNext) : arrival.handleArrival!(middleware, ctx, settledNext);
    } catch (thrown) {
      result = Promise.reject(thrown);
    }
    // Once the middleware has finished: sent at once, or by Koa's own respond() for the other kinds.
    const finish = () => {
      if (sentAtOnce(ctx)) return;
      // Koa's handleRequest sets the 404 default again before running what it is given: keep the
      // status the middleware has set.
      const status = res.statusCode;
      void handleRequest(ctx, () => {
        res.statusCode = status;
        return SETTLED;
      });
    };
    if (settledNow(result)) finish();
    else (result as Promise<unknown>).then(finish, (error: unknown) => ctx.onerror(error as Error));
  };
}

/** Sends the response the way Koa's respond() would, when it is one of the simple kinds; false when Koa must. */
function sentAtOnce(ctx: Context): boolean {
  if (ctx.respond === false || !ctx.writable || ctx.method === 'HEAD') return false;
  const res = ctx.res;
  try {
    if (isEmptyStatus(res.statusCode)) {
      // Koa strips the body and its headers (Content-Type, Content-Length, Transfer-Encoding) the
      // same way. Most often nothing is left to strip (Koa's status setter drops a body set before
      // it, as a 304 from jsonResponse() has), and the three removals are skipped.
      if (
        ctx.body != null ||
        res.hasHeader('Content-Type') ||
        res.hasHeader('Content-Length') ||
        res.hasHeader('Transfer-Encoding')
      )
        ctx.body = null;
      res.end();
      return true;
    }
    const body: unknown = ctx.body;
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return false;
    res.end(body);
  } catch (error) {
    // As Koa, which runs respond() inside its promise chain and reports what it throws.
    ctx.onerror(error as Error);
  }
  return true;
}
