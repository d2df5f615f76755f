import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { EventEmitter } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Context } from 'koa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processingUpdates, PROCESSING_AFTER_STATE } from '../../../runtime/http/index.ts';
import { openSocket, parseResponses, rawExchange } from '../../support/raw-http.ts';

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** A Koa app whose one handler takes `ms`, behind processingUpdates(options). */
async function slowApp(options: Parameters<typeof processingUpdates>[0], ownAfterMs?: number): Promise<string> {
  const app = new Koa();
  app.use(processingUpdates(options));
  app.use(async (ctx) => {
    const after = ctx.query.after === undefined ? ownAfterMs : Number(ctx.query.after);
    if (after !== undefined) (ctx.state as Record<symbol, unknown>)[PROCESSING_AFTER_STATE] = after;
    await new Promise((resolve) => setTimeout(resolve, Number(ctx.query.ms)));
    ctx.body = { done: true };
  });
  return serve(app);
}

/** Listens on a free loopback port (closed after the test) and answers the app's base URL. */
async function serve(app: Koa): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const statusesOf = async (url: string, ms: number, after?: number) =>
  (
    await rawExchange(
      url,
      [
        `GET /?ms=${ms}${after === undefined ? '' : `&after=${after}`} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      ],
      5_000,
    )
  ).responses.map((response) => response.status);
const count102 = (statuses: readonly number[]) => statuses.filter((status) => status === 102).length;

describe('processingUpdates()', () => {
  it('sends the first 102 after afterMs (the global setting), then every everyMs', async () => {
    const statuses = await statusesOf(await slowApp({ afterMs: 100, everyMs: 100 }), 550);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.filter((status) => status === 102).length).toBeGreaterThanOrEqual(2);
  });

  it("an operation's own threshold wins over the global one", async () => {
    expect(await statusesOf(await slowApp({ afterMs: 100, everyMs: 100 }, 2_000), 500)).toEqual([200]);
  });

  // One timer serves every request in flight (no timer per request): each still gets its own updates.
  it('requests in flight at once each get their own updates, then their final response', async () => {
    const url = await slowApp({ afterMs: 100, everyMs: 100 });
    const all = await Promise.all([statusesOf(url, 450), statusesOf(url, 450), statusesOf(url, 120)]);
    for (const statuses of all) expect(statuses.at(-1)).toBe(200);
    expect(count102(all[0]!)).toBeGreaterThanOrEqual(2);
    expect(count102(all[1]!)).toBeGreaterThanOrEqual(2);
    expect(count102(all[2]!)).toBeLessThanOrEqual(1);
  });

  // Responses leave the table as they finish, the last one moving into the slot each frees: those
  // still waiting keep their own updates whatever order the others finished in.
  it('requests that finish out of the order they came in leave the updates of the others intact', async () => {
    const url = await slowApp({ afterMs: 100, everyMs: 100 });
    const durations = [150, 700, 150, 700, 150, 700];
    const all = await Promise.all(durations.map((ms) => statusesOf(url, ms)));
    all.forEach((statuses, index) => {
      expect(statuses.at(-1)).toBe(200);
      if (durations[index] === 700) expect(count102(statuses)).toBeGreaterThanOrEqual(4);
      else expect(count102(statuses)).toBeLessThanOrEqual(1);
    });
  });

  it('the same middleware mounted twice sends each update once', async () => {
    const app = new Koa();
    const updates = processingUpdates({ afterMs: 100, everyMs: 100 });
    app.use(updates);
    app.use(updates);
    app.use(async (ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 450));
      ctx.body = { done: true };
    });
    const statuses = await statusesOf(await serve(app), 450);
    expect(statuses.at(-1)).toBe(200);
    // 102s at about 100, 200, 300 and 400 ms: twice that if the response were in the table twice.
    expect(count102(statuses)).toBeGreaterThanOrEqual(2);
    expect(count102(statuses)).toBeLessThanOrEqual(5);
  });

  it('a request with a shorter threshold is not held back by one that started before it with a longer one', async () => {
    const url = await slowApp({ afterMs: 100, everyMs: 100 });
    const patient = statusesOf(url, 900, 2_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const hurried = await statusesOf(url, 400, 100);
    expect(count102(hurried)).toBeGreaterThanOrEqual(2);
    expect(hurried.at(-1)).toBe(200);
    expect(await patient).toEqual([200]);
  });

  it('a client that goes away gets no more updates, and the others still do', async () => {
    // Counts, per request, the 102s the server still writes once that request's connection has closed.
    const writtenAfterClose = new Map<string, number>();
    const app = new Koa();
    app.use((ctx, next) => {
      const id = String(ctx.query.id);
      const res = ctx.res;
      const writeProcessing = res.writeProcessing.bind(res);
      let closed = false;
      res.once('close', () => (closed = true));
      writtenAfterClose.set(id, 0);
      res.writeProcessing = (...args) => {
        if (closed) writtenAfterClose.set(id, writtenAfterClose.get(id)! + 1);
        writeProcessing(...args);
      };
      return next();
    });
    app.use(processingUpdates({ afterMs: 100, everyMs: 400 }));
    app.use(async (ctx) => {
      await new Promise((resolve) => setTimeout(resolve, Number(ctx.query.ms)));
      ctx.body = { done: true };
    });
    const url = await serve(app);
    const exchange = (id: string, ms: number, hangUpAfterMs: number) =>
      rawExchange(url, [`GET /?id=${id}&ms=${ms} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`], hangUpAfterMs);
    // 102s due at 100 and 500 ms. Hangs up after 300 ms, while its request still runs for 600 more:
    // one 102 before it leaves, none written after.
    const [gone, staying] = await Promise.all([exchange('gone', 900, 300), exchange('staying', 900, 5_000)]);
    expect(gone.responses.map((response) => response.status)).toEqual([102]);
    expect(writtenAfterClose.get('gone')).toBe(0);
    expect(count102(staying.responses.map((response) => response.status))).toBeGreaterThanOrEqual(2);
    expect(staying.responses.at(-1)?.status).toBe(200);
  });

  it('no 102 while the request body is still arriving; updates once it has all arrived and the handler runs', async () => {
    const app = new Koa();
    app.use(processingUpdates({ afterMs: 100, everyMs: 100 }));
    app.use(async (ctx) => {
      for await (const chunk of ctx.req) void chunk;
      await new Promise((resolve) => setTimeout(resolve, 450));
      ctx.body = { done: true };
    });
    const socket = await openSocket(await serve(app));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nConnection: close\r\n\r\n12345');
    // Four updates would have been due by now, had the body's delay counted as the server's work.
    await new Promise((resolve) => setTimeout(resolve, 550));
    expect(received).toBe('');
    socket.write('67890');
    await closed;
    const statuses = parseResponses(received).map((response) => response.status);
    expect(count102(statuses)).toBeGreaterThanOrEqual(2);
    expect(statuses.at(-1)).toBe(200);
  });

  it('afterMs 0 sends none', async () => {
    expect(await statusesOf(await slowApp({ afterMs: 0 }), 300)).toEqual([200]);
  });
});

/** A response as processingUpdates() sees it: counts its 102s, and closes when told to. */
class FakeResponse extends EventEmitter {
  /** Its request has arrived whole: updates are due. */
  readonly req = { complete: true };
  updates = 0;
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  writeProcessing(): void {
    this.updates += 1;
  }
  close(): void {
    this.writableEnded = true;
    this.emit('close');
  }
}

describe('processingUpdates(): the table of waiting responses', () => {
  afterEach(() => vi.useRealTimers());

  /** Hands each response to the middleware as a request still running, with its own threshold for the first 102. */
  function waitingResponses(
    middleware: ReturnType<typeof processingUpdates>,
    afterMs: readonly number[],
  ): FakeResponse[] {
    const pending = () => new Promise<void>(() => undefined);
    return afterMs.map((after) => {
      const res = new FakeResponse();
      const state = { [PROCESSING_AFTER_STATE]: after };
      void middleware({ res, req: { httpVersionMajor: 1, httpVersionMinor: 1 }, state } as unknown as Context, pending);
      return res;
    });
  }

  // Each response that leaves frees its slot to the last one, which takes its due time along: a
  // moved entry with the wrong due time gets its first 102 at the time of the response it replaced.
  it('whatever order responses close in, each one still waiting gets its first update at its own time and no closed one gets any', async () => {
    vi.useFakeTimers();
    const firstAfter = [100, 200, 300, 400, 500, 600, 700];
    const responses = waitingResponses(processingUpdates({ afterMs: 100, everyMs: 10_000 }), firstAfter);
    // Closing 0 moves 6 into slot 0, closing 2 moves 5 into slot 2, closing 4 moves 6 (again) into slot 4... whichever is last.
    const closeOrder = [0, 2, 4];
    for (const index of closeOrder) responses[index]!.close();
    for (let now = 50; now <= 750; now += 100) {
      await vi.advanceTimersByTimeAsync(now === 50 ? 50 : 100);
      for (const [index, res] of responses.entries()) {
        const expected = closeOrder.includes(index) || firstAfter[index]! > now ? 0 : 1;
        expect(res.updates, `response ${index} at ${now} ms`).toBe(expected);
      }
    }
  });

  // A closed response leaves the table at once, not at the next update: nothing keeps it (its
  // request, headers and context) alive. The last entry moving into a freed slot must learn its new
  // slot, or it stays behind when it closes in turn.
  it('a response that has closed is no longer held, whatever slot it had moved to', async () => {
    const collect = gcFunction();
    const middleware = processingUpdates({ afterMs: 60_000, everyMs: 60_000 });
    const refs = (() => {
      const responses = waitingResponses(middleware, [60_000, 60_000, 60_000, 60_000]);
      // Closing 0 moves 3 into slot 0; closing 1 moves 2 into slot 1; then the moved ones close.
      for (const index of [0, 1, 3, 2]) responses[index]!.close();
      return responses.map((res) => new WeakRef(res));
    })();
    // WeakRef targets stay alive until the task that made them ends.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(refs.map((ref) => ref.deref() === undefined)).toEqual([true, true, true, true]);
  });
});

/** The engine's garbage collector, run on demand (the flag only exposes it to contexts made after). */
function gcFunction(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
