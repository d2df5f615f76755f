import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import compress from '@fastify/compress';
import { openOrdersTable } from './orders-table.ts';
import { PEER_GZIP } from './peer-settings.ts';
import { conventionHeadersFromEnv, prettyJson } from './convention-headers.ts';

/**
 * Peer f: the orders endpoints as a speed-minded user writes them with Fastify 5 over node:sqlite:
 * JSON-schema validation of the query, parameters and body (Ajv, Fastify's defaults: types coerced,
 * unknown body members removed), responses serialised from their schemas (fast-json-stringify),
 * compact JSON, no auth or limits, no logger.
 *
 * Fairness choices, as for b (servers/koa-sqlite.ts): the same table and statements
 * (servers/orders-table.ts); compression only when GZIP=1 (@fastify/compress with the generated
 * server's threshold and zlib settings, peer-settings.ts); an ETag only when the request revalidates
 * (serialise once, hash, compare).
 *
 * With CONVENTION_HEADERS_FILE (convention-headers.ts) GET one also sends the generated server's
 * headers, as constants through `reply.headers()`, and pretty-prints its JSON, and its 304 sends the
 * same headers: the conventions' bytes on Fastify, with none of the work that decides them.
 *
 * env: DATABASE_PATH, GZIP (1 = on), CONVENTION_HEADERS_FILE, PORT (0 = any free port), HOST.
 */
const { selectOne, selectPage, insert } = openOrdersTable(process.env.DATABASE_PATH!);
const conventionHeaders = conventionHeadersFromEnv();

const order = {
  type: 'object',
  properties: {
    order_id: { type: 'integer' },
    item: { type: 'string' },
    quantity: { type: 'integer' },
    created_at: { type: 'string' },
  },
  required: ['order_id', 'item', 'quantity', 'created_at'],
} as const;

const app = Fastify({ logger: false, keepAliveTimeout: 65_000 });
if (process.env.GZIP === '1')
  await app.register(compress, { threshold: PEER_GZIP.thresholdBytes, zlibOptions: PEER_GZIP.zlib });

app.get<{ Querystring: { limit: number; offset: number } }>('/v1/orders', {
  schema: {
    querystring: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
        offset: { type: 'integer', minimum: 0, default: 0 },
      },
    },
    response: { 200: { type: 'array', items: order } },
  },
  handler: (request) => selectPage.all(request.query.limit, request.query.offset),
});

app.get<{ Params: { id: number } }>('/v1/orders/:id', {
  schema: {
    params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    response: { 200: order },
  },
  handler: (request, reply) => {
    const row = selectOne.get(request.params.id);
    if (row === undefined) return reply.code(404).send({ message: 'not found' });
    if (request.headers['if-none-match'] === undefined) {
      if (conventionHeaders === undefined) return row;
      return reply.headers(conventionHeaders.all).type('application/json; charset=utf-8').send(prettyJson(row));
    }
    const json = String(reply.serialize(row));
    const etag = `"${createHash('sha1').update(json).digest('base64url')}"`;
    if (conventionHeaders !== undefined) reply.headers(conventionHeaders.withoutTag);
    reply.header('ETag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(json);
  },
});

app.post<{ Body: { item: string; quantity: number } }>('/v1/orders', {
  schema: {
    body: {
      type: 'object',
      properties: { item: { type: 'string', minLength: 1 }, quantity: { type: 'integer', minimum: 1 } },
      required: ['item', 'quantity'],
      additionalProperties: false,
    },
    response: { 201: order },
  },
  handler: (request, reply) => {
    const row = insert.get(request.body.item, request.body.quantity, new Date().toISOString()) as { order_id: number };
    return reply.code(201).header('Location', `/v1/orders/${row.order_id}`).send(row);
  },
});

const host = process.env.HOST ?? '127.0.0.1';
await app.listen({ port: Number(process.env.PORT ?? 0), host });
const address = app.server.address();
console.log(`listening on http://${host}:${typeof address === 'object' && address !== null ? address.port : 0}`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
