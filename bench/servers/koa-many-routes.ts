import Koa from 'koa';
import Router from '@koa/router';
import { syntheticCollectionName } from '../synthetic/names.ts';

/**
 * The route-count reference: plain @koa/router with ROUTES collections (a list and an item route
 * each, like the generated server declares), answering GET /v1/<first collection>/1 with a fixed
 * row. @koa/router tests every route's regular expression on each request, so its cost grows with
 * the route count; this shows what the generated dispatch avoids.
 *
 * env: ROUTES (number of collections), PORT (0 = any free port), HOST.
 */
const count = Number(process.env.ROUTES ?? 10);
const router = new Router();
const row = { widget_id: 1, name: 'x', created_at: '2026-01-01T00:00:00Z' };
for (let index = 1; index <= count; index += 1) {
  const collection = syntheticCollectionName(index);
  router.get(`/v1/${collection}`, (ctx) => {
    ctx.body = [row];
  });
  router.get(`/v1/${collection}/:id`, (ctx) => {
    ctx.body = row;
  });
}

const app = new Koa();
app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  console.log(`listening on http://${process.env.HOST ?? '127.0.0.1'}:${port}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
