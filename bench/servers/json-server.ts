import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import jsonServer from 'json-server';

/**
 * Peer j: json-server 0.17, what a user picks for a quick REST API, as its CLI sets it up
 * (`json-server db.json --id order_id --routes routes.json`): Express with json-server's defaults
 * (CORS, static files, Cache-Control: no-cache; gzip only when GZIP=1), its router over a lowdb
 * file that is rewritten whole on every write, and Express's weak ETag on every response (so a
 * revalidation answers 304). No validation (any JSON object is stored), no auth or limits, pretty
 * JSON (2 spaces), no request log (the CLI's morgan logger off, as in production).
 *
 * The bench's paths are mapped onto json-server's: /v1/orders → /orders, `limit` → `_limit`
 * (json-server would read an unknown query parameter as a filter).
 *
 * env: DATABASE_PATH (the JSON file, created empty), GZIP (1 = on), PORT (0 = any free port), HOST.
 */
const file = process.env.DATABASE_PATH!;
writeFileSync(file, JSON.stringify({ orders: [] }));
const server = jsonServer.create();
const router = jsonServer.router(file);
router.db._.id = 'order_id';
server.use(jsonServer.defaults({ logger: false, noGzip: process.env.GZIP !== '1' }));
server.use(jsonServer.rewriter({ '/v1/*': '/$1' }));
server.use((request, _response, next) => {
  if (request.query.limit !== undefined) {
    request.query._limit = request.query.limit;
    delete request.query.limit;
  }
  next();
});
server.use(router);

const host = process.env.HOST ?? '127.0.0.1';
const listening = server.listen(Number(process.env.PORT ?? 0), host, () => {
  console.log(`listening on http://${host}:${(listening.address() as AddressInfo).port}`);
});
listening.keepAliveTimeout = 65_000;
process.once('SIGTERM', () => listening.close(() => process.exit(0)).closeAllConnections());
