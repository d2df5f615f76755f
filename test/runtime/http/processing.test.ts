import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
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
