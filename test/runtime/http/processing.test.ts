import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { EventEmitter } from 'node:events';
import type { Context } from 'koa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processingUpdates, PROCESSING_AFTER_STATE } from '../../../runtime/http/index.ts';
import { rawExchange } from '../../support/raw-http.ts';

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
  (await rawExchange(url, [`GET /?ms=${ms}${after === undefined ? '' : `&after=${after}`} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`], 5_000)).responses.map(
    (response) => response.status,
  );
const count102 = (statuses: readonly number[]) => statuses.filter((status) => status === 102).length;

describe('processingUpdates()', () => {
  it('sends the first 102 after afterMs (the global setting), then every everyMs', async () => {
    const statuses = await statusesOf(await slowApp({ afterMs: 100, everyMs: 100 }), 550);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.filter((status) => status === 102).length).toBeGreaterThanOrEqual(2);
  });

  it('an operation\'s own threshold wins over the global one', async () => {
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
    const url = await slowApp({ afterMs: 100, everyMs: 100 });
    const { host } = new URL(url);
    // Sends the request and hangs up after 150 ms: one 102 at most, then nothing is written to it.
    const gone = rawExchange(url, [`GET /?ms=600 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`], 150).catch(() => undefined);
    const staying = await statusesOf(url, 500);
    await gone;
    expect(count102(staying)).toBeGreaterThanOrEqual(2);
    expect(staying.at(-1)).toBe(200);
  });

  it('afterMs 0 sends none', async () => {
    expect(await statusesOf(await slowApp({ afterMs: 0 }), 300)).toEqual([200]);
  });
});

/** A response as processingUpdates() sees it: counts its 102s, and closes when told to. */
class FakeResponse extends EventEmitter {
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

  // Each response that leaves frees its slot to the last one: a wrong slot would take another
  // response out of the table (no more updates for it) or leave a closed one in.
  it('whatever order responses close in, each one still waiting gets its updates and no closed one does', async () => {
    vi.useFakeTimers();
    const middleware = processingUpdates({ afterMs: 100, everyMs: 100 });
    const pending = () => new Promise<void>(() => undefined);
    const responses = Array.from({ length: 6 }, () => new FakeResponse());
    for (const res of responses) {
      const ctx = { res, req: { httpVersionMajor: 1, httpVersionMinor: 1 }, state: {} } as unknown as Context;
      void middleware(ctx, pending);
    }
    const closeOrder = [0, 4, 2, 5];
    for (const index of closeOrder) responses[index]!.close();
    await vi.advanceTimersByTimeAsync(350);
    for (const [index, res] of responses.entries()) {
      if (closeOrder.includes(index)) expect(res.updates, `closed response ${index}`).toBe(0);
      else expect(res.updates, `waiting response ${index}`).toBe(3);
    }
    responses[3]!.close();
    await vi.advanceTimersByTimeAsync(100);
    expect(responses[3]!.updates).toBe(3);
    expect(responses[1]!.updates).toBe(4);
  });
});
