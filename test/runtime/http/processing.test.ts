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
    if (ownAfterMs !== undefined) (ctx.state as Record<symbol, unknown>)[PROCESSING_AFTER_STATE] = ownAfterMs;
    await new Promise((resolve) => setTimeout(resolve, Number(ctx.query.ms)));
    ctx.body = { done: true };
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const statusesOf = async (url: string, ms: number) =>
  (await rawExchange(url, [`GET /?ms=${ms} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`], 5_000)).responses.map((response) => response.status);

describe('processingUpdates()', () => {
  it('sends the first 102 after afterMs (the global setting), then every everyMs', async () => {
    const statuses = await statusesOf(await slowApp({ afterMs: 100, everyMs: 100 }), 550);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.filter((status) => status === 102).length).toBeGreaterThanOrEqual(2);
  });

  it('an operation\'s own threshold wins over the global one', async () => {
    expect(await statusesOf(await slowApp({ afterMs: 100, everyMs: 100 }, 2_000), 500)).toEqual([200]);
  });

  it('afterMs 0 sends none', async () => {
    expect(await statusesOf(await slowApp({ afterMs: 0 }), 300)).toEqual([200]);
  });
});
