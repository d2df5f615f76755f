import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { conventionHeadersToCopy, prettyJson } from '../../bench/servers/convention-headers.ts';
import { startOrdersServer, type OrdersServer } from '../../bench/lib/orders-server.ts';
import { expectStatus } from '../../bench/lib/raw-request.ts';
import { tempDir } from '../../bench/lib/temp.ts';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** The tag c sent: a peer's own tag for the same row differs from it. */
const C_TAG = '"TSPefwG5TiLeyZ7OSQp3ZJ-RcyU"';

/** Headers as the generated server sends a GET one (the values are the bench's captured kind, not checked here). */
const SENT: [string, string][] = [
  ['X-Request-Id', '1b4b2323-cc72-4931-8f1a-778168577d95'],
  ['Server', 'conventional-api'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Vary', 'Accept-Encoding, X-Result-Fields, X-Expansion-Fields, X-Pretty-Print, Authorization'],
  ['X-RateLimit-Limit', '600'],
  ['X-RateLimit-Remaining', '598'],
  ['X-RateLimit-Reset', '1795902213'],
  ['Content-Type', 'application/json;charset=UTF-8'],
  ['X-Pretty-Print', 'true'],
  ['Content-Length', '92'],
  ['ETag', C_TAG],
  ['E-Tag', C_TAG],
  ['Last-Modified', '2026-11-28T21:42:32Z'],
  ['Cache-Control', 'private, no-cache'],
  ['Date', 'Sat, 28 Nov 2026 21:42:32 GMT'],
  ['Connection', 'keep-alive'],
  ['Keep-Alive', 'timeout=65'],
];

const NODE_WRITES = ['content-type', 'content-length', 'date', 'connection', 'keep-alive'];

/** What the bench copies from SENT. */
const COPIED = conventionHeadersToCopy(SENT);

/** `peer` as the bench starts it with c's headers to copy, one order seeded. */
async function startWithCopiedHeaders(peer: OrdersServer) {
  const dataDir = tempDir('convention-headers');
  const file = join(dataDir, 'headers.json');
  writeFileSync(file, JSON.stringify(COPIED));
  const server = await startOrdersServer(peer, dataDir, {
    gzip: false,
    seedCount: 1,
    headers: {},
    env: { CONVENTION_HEADERS_FILE: file },
  });
  stops.push(() => server.stop());
  return server;
}

describe("the peers sending c's headers as constants", () => {
  it('copies every header but those the HTTP layer writes itself, in order, whatever their case', () => {
    const copied = conventionHeadersToCopy([...SENT, ['TRANSFER-ENCODING', 'chunked']]);
    expect(copied).toEqual(SENT.filter(([name]) => !NODE_WRITES.includes(name.toLowerCase())));
    expect(copied).toHaveLength(12);
  });

  // b is the request path's h; f and o are counted with them by the instruction section.
  it.each<OrdersServer>(['b', 'f', 'o'])(
    '%s sends them on GET one, with the JSON laid out as c lays it out',
    async (peer) => {
      const server = await startWithCopiedHeaders(peer);
      const getOne = await expectStatus(server.url, { method: 'GET', path: '/v1/orders/1' }, 200);
      for (const [name, value] of COPIED) expect(getOne.header(name), name).toBe(value);
      const row: unknown = JSON.parse(getOne.body.toString('utf8'));
      expect(getOne.body.toString('utf8')).toBe(prettyJson(row));
      expect(getOne.header('Content-Type')).toMatch(/^application\/json/);
    },
  );

  it.each<OrdersServer>(['f', 'o'])('%s sends them on its 304 too, with its own tag', async (peer) => {
    const server = await startWithCopiedHeaders(peer);
    const path = '/v1/orders/1';
    const asked = await expectStatus(server.url, { method: 'GET', path, headers: { 'If-None-Match': '"none"' } }, 200);
    const tag = asked.header('ETag')!;
    expect(tag).not.toBe(C_TAG);
    const notModified = await expectStatus(server.url, { method: 'GET', path, headers: { 'If-None-Match': tag } }, 304);
    const tags = notModified.headers.filter(([name]) => name.toLowerCase() === 'etag').map(([, value]) => value);
    expect(tags).toEqual([tag]);
    for (const [name, value] of COPIED.filter(([name]) => name !== 'ETag'))
      expect(notModified.header(name), name).toBe(value);
    expect(notModified.body.length).toBe(0);
  });
});
