import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { validator } from 'hono/validator';
import { serve } from '@hono/node-server';
import { z } from 'zod';
import { openOrdersTable } from './orders-table.ts';
import { PEER_GZIP } from './peer-settings.ts';
import { conventionHeadersFromEnv, prettyJson } from './convention-headers.ts';

/**
 * Peer o: the orders endpoints as a speed-minded user writes them with Hono 4 on @hono/node-server
 * over node:sqlite: the body validated with zod (Hono's `validator` with a zod schema, the pattern
 * its documentation gives), the page's limit and offset read as b reads them, compact JSON through
 * `c.json`, no auth or limits, no logger.
 *
 * Fairness choices, as for b and f (servers/koa-sqlite.ts, fastify-sqlite.ts): the same table and
 * statements (servers/orders-table.ts); compression only when GZIP=1 (hono/compress with the
 * generated server's threshold; it compresses through the platform's CompressionStream, whose zlib
 * settings cannot be set); an ETag only when the request revalidates (serialise once, hash,
 * compare weakly: hono/compress weakens the tag it sends with a gzip body).
 *
 * With CONVENTION_HEADERS_FILE (convention-headers.ts) GET one also sends the generated server's
 * headers, as constants, and pretty-prints its JSON, and its 304 sends the same headers: the
 * conventions' bytes on Hono, with none of the work that decides them. They go out in a Response
 * made with a plain headers object, which @hono/node-server writes without building a Headers
 * object: under callgrind, about a third fewer instructions a GET one than `c.body(text, 200, headers)`.
 *
 * env: DATABASE_PATH, GZIP (1 = on), CONVENTION_HEADERS_FILE, PORT (0 = any free port), HOST.
 */
const { selectOne, selectPage, insert } = openOrdersTable(process.env.DATABASE_PATH!);
const conventionHeaders = conventionHeadersFromEnv();
const prettyGetHeaders = conventionHeaders && {
  ...conventionHeaders.all,
  'Content-Type': 'application/json; charset=utf-8',
};

const newOrder = z.strictObject({ item: z.string().min(1), quantity: z.int().min(1) });

const app = new Hono();
if (process.env.GZIP === '1') app.use(compress({ encoding: 'gzip', threshold: PEER_GZIP.thresholdBytes }));

app.get('/v1/orders', (c) => {
  const limit = Math.min(Number(c.req.query('limit') ?? 50) || 50, 500);
  const offset = Number(c.req.query('offset') ?? 0) || 0;
  return c.json(selectPage.all(limit, offset));
});

app.get('/v1/orders/:id', (c) => {
  const row = selectOne.get(Number(c.req.param('id')));
  if (row === undefined) return c.json({ message: 'not found' }, 404);
  // Compared weakly, as If-None-Match is (RFC 9110): hono/compress sends the tag weakened (W/) with a gzip body.
  const asked = c.req.header('If-None-Match');
  const revalidating = asked?.startsWith('W/') ? asked.slice(2) : asked;
  if (revalidating === undefined)
    return prettyGetHeaders === undefined
      ? c.json(row)
      : new Response(prettyJson(row), { status: 200, headers: prettyGetHeaders });
  const json = JSON.stringify(row);
  const etag = `"${createHash('sha1').update(json).digest('base64url')}"`;
  if (conventionHeaders !== undefined && revalidating === etag)
    return new Response(null, { status: 304, headers: { ...conventionHeaders.withoutTag, ETag: etag } });
  c.header('ETag', etag);
  if (revalidating === etag) return c.body(null, 304);
  return c.body(json, 200, { 'Content-Type': 'application/json' });
});

app.post(
  '/v1/orders',
  validator('json', (value, c) => {
    const parsed = newOrder.safeParse(value);
    return parsed.success ? parsed.data : c.json({ message: 'invalid order', issues: parsed.error.issues }, 400);
  }),
  (c) => {
    const { item, quantity } = c.req.valid('json');
    const row = insert.get(item, quantity, new Date().toISOString()) as { order_id: number };
    return c.json(row, 201, { Location: `/v1/orders/${row.order_id}` });
  },
);

const host = process.env.HOST ?? '127.0.0.1';
const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: host }, (info) => {
  console.log(`listening on http://${host}:${info.port}`);
});
// As b and f: keep-alive connections outlive the load's pauses between rounds.
(server as import('node:http').Server).keepAliveTimeout = 65_000;
process.once('SIGTERM', () => server.close(() => process.exit(0)));
