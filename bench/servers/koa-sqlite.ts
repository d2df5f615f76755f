import { createHash } from 'node:crypto';
import Koa from 'koa';
import { openOrdersTable } from './orders-table.ts';
import Router from '@koa/router';
import compress from 'koa-compress';
import parse from 'co-body';
import { PEER_GZIP } from './peer-settings.ts';
import { conventionHeadersFromEnv, prettyJson } from './convention-headers.ts';

/**
 * Baseline b: the orders endpoints as a user would write them by hand with Koa, @koa/router and
 * node:sqlite: no conventions beyond correct statuses, compact JSON, no auth or limits.
 *
 * Fairness choices, so the comparison measures the conventions and not incidental settings:
 * - the generated store's durability and the same statements as f (servers/orders-table.ts);
 * - compression only when GZIP=1, with koa-compress set to the generated server's threshold and zlib
 *   settings (peer-settings.ts), gzip only;
 * - an ETag only when the request revalidates (If-None-Match): a plain GET stays the bare
 *   `ctx.body = row` a hand-written handler is, while revalidation does the work any 304 needs
 *   (serialise once, hash, compare).
 *
 * With CONVENTION_HEADERS_FILE (a JSON list of [name, value] pairs captured from the generated
 * server's GET one) GET one also sends those headers, as constants, and pretty-prints its JSON:
 * the conventions' bytes on the wire with none of the work that decides them (bench server "h").
 *
 * env: DATABASE_PATH, GZIP (1 = on), CONVENTION_HEADERS_FILE, PORT (0 = any free port), HOST.
 */
const { selectOne, selectPage, insert } = openOrdersTable(process.env.DATABASE_PATH!);

const conventionHeaders = conventionHeadersFromEnv();

const app = new Koa();
if (process.env.GZIP === '1')
  app.use(compress({ threshold: PEER_GZIP.thresholdBytes, gzip: PEER_GZIP.zlib, deflate: false, br: false }));

/** A GET's JSON body: the row as is, or (h) pretty text under c's headers, set the cheapest way Node allows. */
function sendRow(ctx: Koa.Context, row: unknown): void {
  if (conventionHeaders === undefined) {
    ctx.body = row;
    return;
  }
  for (const [name, value] of conventionHeaders.pairs) ctx.res.setHeader(name, value);
  ctx.res.setHeader('Content-Type', 'application/json; charset=utf-8');
  ctx.body = prettyJson(row);
}
const router = new Router();

router.get('/v1/orders', (ctx) => {
  const limit = Math.min(Number(ctx.query.limit ?? 50) || 50, 500);
  const offset = Number(ctx.query.offset ?? 0) || 0;
  ctx.body = selectPage.all(limit, offset);
});

router.get('/v1/orders/:id', (ctx) => {
  const row = selectOne.get(Number(ctx.params.id));
  if (row === undefined) ctx.throw(404);
  if (ctx.get('If-None-Match') === '') {
    sendRow(ctx, row);
    return;
  }
  const json = JSON.stringify(row);
  ctx.type = 'application/json';
  ctx.etag = createHash('sha1').update(json).digest('base64url');
  ctx.body = json;
  if (ctx.fresh) ctx.status = 304;
});

router.post('/v1/orders', async (ctx) => {
  const body = (await parse.json(ctx.req, { limit: '1mb' })) as { item?: unknown; quantity?: unknown };
  const { item, quantity } = body;
  if (
    typeof item !== 'string' ||
    item === '' ||
    typeof quantity !== 'number' ||
    !Number.isInteger(quantity) ||
    quantity < 1
  ) {
    return ctx.throw(400, 'item (string) and quantity (integer >= 1) are required');
  }
  const row = insert.get(item, quantity, new Date().toISOString()) as { order_id: number };
  ctx.status = 201;
  ctx.set('Location', `/v1/orders/${row.order_id}`);
  ctx.body = row;
});

app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  console.log(`listening on http://${process.env.HOST ?? '127.0.0.1'}:${port}`);
});
server.keepAliveTimeout = 65_000;
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
