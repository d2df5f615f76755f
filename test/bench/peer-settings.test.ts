import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { compression, jsonResponse } from '../../runtime/responses/index.ts';
import { DEFAULT_POOL_SIZE } from '../../runtime/storage/postgres/connect.ts';
import { PEER_GZIP, PEER_POOL } from '../../bench/servers/peer-settings.ts';
import { postgresPathResult } from '../../bench/sections/postgres-path.ts';
import { parseOptions } from '../../bench/lib/options.ts';
import { startOrdersServer, type OrdersServer } from '../../bench/lib/orders-server.ts';
import { tempDir } from '../../bench/lib/temp.ts';
import { revalidationTag } from '../../bench/lib/memory-load.ts';
import { rawRequest } from '../../bench/lib/raw-request.ts';

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** Text zlib's settings show in: a 12 KiB block with no repeats in it, twice (8 KiB apart or more). */
const BLOCK = Array.from({ length: 3000 }, (_, index) => ((index * 2_654_435_761) % 4_294_967_296).toString(36))
  .join('')
  .slice(0, 12 * 1024);

/** The generated server's compression and JSON response over a body of about `bytes` bytes of JSON text. */
async function generatedCompression(bytes: number): Promise<string> {
  const app = new Koa();
  app.use(compression());
  app.use(jsonResponse());
  app.use((ctx) => void (ctx.body = { text: (BLOCK + BLOCK).slice(0, bytes) }));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** The bytes on the wire (not decompressed) and the Content-Encoding of a GET with Accept-Encoding: gzip. */
function rawGet(url: string): Promise<{ body: Buffer; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers: { 'Accept-Encoding': 'gzip', Accept: 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ body: Buffer.concat(chunks), encoding: response.headers['content-encoding'] }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe("the bench peers' settings are the generated server's", () => {
  it('gzip: the same threshold, and the same zlib settings (the same bytes for the same text)', async () => {
    // Pretty-printed by c: measure the length it sends, not the compact text above.
    const below = await rawGet(await generatedCompression(PEER_GZIP.thresholdBytes - 40));
    expect(below.encoding).toBeUndefined();
    expect(below.body.length).toBeLessThan(PEER_GZIP.thresholdBytes);
    const above = await rawGet(await generatedCompression(PEER_GZIP.thresholdBytes + 40));
    expect(above.encoding).toBe('gzip');
    expect(gunzipSync(above.body).length).toBeGreaterThanOrEqual(PEER_GZIP.thresholdBytes);
    const large = await rawGet(await generatedCompression(2 * BLOCK.length));
    expect(large.encoding).toBe('gzip');
    const text = gunzipSync(large.body);
    expect(gzipSync(text, PEER_GZIP.zlib).equals(large.body)).toBe(true);
    // The comparison can tell settings apart: zlib's defaults give other bytes.
    expect(gzipSync(text).equals(large.body)).toBe(false);
  });

  // The peers as the bench starts them, each answering a page of orders whose text zlib's settings show in.
  it.each<[string, OrdersServer]>([
    ['b (koa-compress)', 'b'],
    ['f (@fastify/compress)', 'f'],
  ])('%s gzips with the same zlib settings', async (_name, peer) => {
    const server = await startOrdersServer(peer, tempDir('peer-gzip'), { gzip: true, seedCount: 0, headers: {} });
    servers.push({ close: () => void server.stop() });
    // 100 orders of 120 characters each, created 20 at a time.
    for (let batch = 0; batch < 5; batch += 1) {
      const items = Array.from({ length: 20 }, (_, index) =>
        BLOCK.slice((batch * 20 + index) * 120, (batch * 20 + index + 1) * 120),
      );
      const created = await Promise.all(
        items.map((item) =>
          fetch(`${server.url}/v1/orders`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ item, quantity: 1 }),
          }),
        ),
      );
      expect(created.map((response) => response.status)).toEqual(items.map(() => 201));
    }
    const page = await rawGet(`${server.url}/v1/orders?limit=500`);
    expect(page.encoding).toBe('gzip');
    const text = gunzipSync(page.body);
    expect(gzipSync(text, PEER_GZIP.zlib).equals(page.body)).toBe(true);
    expect(gzipSync(text).equals(page.body)).toBe(false);
  });

  // What the notes say of o: hono/compress takes no zlib settings, and its threshold never applies to c.json's bodies.
  it('o (hono/compress) gzips with zlib defaults, GET one under the threshold too', async () => {
    const server = await startOrdersServer('o', tempDir('peer-gzip'), { gzip: true, seedCount: 0, headers: {} });
    servers.push({ close: () => void server.stop() });
    const item = BLOCK.slice(0, 2 * PEER_GZIP.thresholdBytes);
    const created = await fetch(`${server.url}/v1/orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ item, quantity: 1 }),
    });
    expect(created.status).toBe(201);
    const large = await rawGet(`${server.url}/v1/orders/1`);
    expect(large.encoding).toBe('gzip');
    const text = gunzipSync(large.body);
    expect(gzipSync(text).equals(large.body)).toBe(true);
    await fetch(`${server.url}/v1/orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"item":"x","quantity":1}',
    });
    const small = await rawGet(`${server.url}/v1/orders/2`);
    expect(small.encoding).toBe('gzip');
    expect(gunzipSync(small.body).length).toBeLessThan(PEER_GZIP.thresholdBytes);
  });

  // The request path's gzip 304 rows send each peer back the tag it gave; hono/compress weakens it (W/).
  it.each(['b', 'f', 'o'] as const)('%s answers 304 to the tag it sent with gzip on', async (peer) => {
    const headers = { 'Accept-Encoding': 'gzip' };
    const server = await startOrdersServer(peer, tempDir('peer-gzip-304'), { gzip: true, seedCount: 1, headers });
    servers.push({ close: () => void server.stop() });
    const tag = await revalidationTag(server, headers);
    // node:http, as the load generator sends it: fetch() adds Cache-Control: no-cache to a conditional GET.
    const revalidate = (ifNoneMatch: string) =>
      rawRequest(server.url, {
        method: 'GET',
        path: '/v1/orders/1',
        headers: { ...headers, 'If-None-Match': ifNoneMatch },
      });
    expect((await revalidate(tag)).status).toBe(304);
    expect((await revalidate('"other"')).status).toBe(200);
  });

  it('o validates the body with zod: unknown members and a quantity under 1 are refused', async () => {
    const server = await startOrdersServer('o', tempDir('peer-zod'), { gzip: false, seedCount: 0, headers: {} });
    servers.push({ close: () => void server.stop() });
    const post = (body: string) =>
      fetch(`${server.url}/v1/orders`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect((await post('{"item":"x","quantity":0}')).status).toBe(400);
    expect((await post('{"item":"x","quantity":1,"note":"y"}')).status).toBe(400);
    const created = await post('{"item":"x","quantity":1}');
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/v1/orders/1');
    expect(await created.json()).toMatchObject({ order_id: 1, item: 'x', quantity: 1 });
  });

  it('PostgreSQL pool: as many connections as the generated server keeps, min = max', () => {
    expect(PEER_POOL.max).toBe(DEFAULT_POOL_SIZE);
    expect(PEER_POOL.min).toBe(PEER_POOL.max);
  });
});

describe('the PostgreSQL section reports what ran', () => {
  it('names the version the server answered, and the pool both sides kept', () => {
    const version = 'PostgreSQL 16.4 on x86_64-pc-linux-gnu, compiled by gcc 12.2.0, 64-bit';
    const { tables } = postgresPathResult([], parseOptions(['--only', 'postgres']), { lifetime: 'b 40 MiB', version });
    const notes = tables[0]!.notes!.join('\n');
    expect(notes).toContain(`One PostgreSQL server, ${version} (fsync`);
    expect(notes).not.toMatch(/PostgreSQL 15\b/);
    expect(notes).toContain(`a pool of ${DEFAULT_POOL_SIZE} connections opened once and kept (min = max)`);
  });
});
