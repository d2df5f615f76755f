import Koa from 'koa';
import Router from '@koa/router';
import parse from 'co-body';
import pg from 'pg';
import { PEER_POOL } from './peer-settings.ts';

/**
 * Baseline b of the PostgreSQL path: the orders endpoints as a user would write them by hand with Koa,
 * @koa/router and pg, on the orders table the generated server made (same database, same rows): no
 * conventions beyond correct statuses, compact JSON, no auth or limits.
 *
 * Fairness choices, so the comparison measures the conventions and not incidental settings: the
 * generated server's pool (10 connections, min = max: opened once and kept, no idle timer armed when a
 * connection comes back; peer-settings.ts), named prepared statements (as the generated store uses),
 * bigints read as numbers (as it reads them).
 *
 * env: DATABASE_URL, PORT (0 = any free port), HOST.
 */
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL!,
  max: PEER_POOL.max,
  min: PEER_POOL.min,
  types: {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === 20 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  },
});
const COLUMNS = 'order_id, item, quantity, created_at';

const app = new Koa();
const router = new Router();

router.get('/v1/orders', async (ctx) => {
  const limit = Math.min(Number(ctx.query.limit ?? 50) || 50, 500);
  const offset = Number(ctx.query.offset ?? 0) || 0;
  const { rows } = await pool.query({
    name: 'page',
    text: `SELECT ${COLUMNS} FROM orders ORDER BY order_id LIMIT $1 OFFSET $2`,
    values: [limit, offset],
  });
  ctx.body = rows;
});

router.get('/v1/orders/:id', async (ctx) => {
  const { rows } = await pool.query({
    name: 'one',
    text: `SELECT ${COLUMNS} FROM orders WHERE order_id = $1`,
    values: [Number(ctx.params.id)],
  });
  if (rows[0] === undefined) ctx.throw(404);
  ctx.body = rows[0];
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
  const now = new Date().toISOString();
  const { rows } = await pool.query({
    name: 'insert',
    text: `INSERT INTO orders (item, quantity, created_at, updated_at) VALUES ($1, $2, $3, $3) RETURNING ${COLUMNS}`,
    values: [item, quantity, now],
  });
  ctx.status = 201;
  ctx.set('Location', `/v1/orders/${rows[0].order_id}`);
  ctx.body = rows[0];
});

app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  console.log(`listening on http://${process.env.HOST ?? '127.0.0.1'}:${port}`);
});
server.keepAliveTimeout = 65_000;
process.once('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))).closeAllConnections());
