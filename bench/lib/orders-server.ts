import { join } from 'node:path';
import { ORDER_BODY } from './endpoints.ts';
import { seed } from './generated-server.ts';
import { repoPath } from './paths.ts';
import { startServer, type ServerProcess } from './server-process.ts';

/** The hand-written orders servers under bench/servers/, each serving the example's orders endpoints. */
export const ORDERS_SERVERS = { b: 'koa-sqlite', f: 'fastify-sqlite', o: 'hono-sqlite', j: 'json-server' } as const;
export type OrdersServer = keyof typeof ORDERS_SERVERS;
/** Their names in the bench's tables. */
export const ORDERS_SERVER_NAMES: Readonly<Record<OrdersServer, string>> = {
  b: 'b Koa + @koa/router',
  f: 'f Fastify 5 + node:sqlite',
  o: 'o Hono 4 + node:sqlite',
  j: 'j json-server 0.17',
};

export interface OrdersServerOptions {
  readonly gzip: boolean;
  /** The process's name in logs and tables (default: the script's, with the encoding). */
  readonly name?: string;
  /** How many orders to create through its own POST before it is measured. */
  readonly seedCount: number;
  /** Request headers the seeding POSTs carry (the bench's, so every server sees the same requests). */
  readonly headers: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string>>;
}

/** The script a peer runs as (node's argument). */
export function ordersServerScript(server: OrdersServer): string {
  return repoPath('bench', 'servers', `${ORDERS_SERVERS[server]}.ts`);
}

/** Starts one of them on a fresh store in `dataDir` and seeds it through its own API. */
export async function startOrdersServer(
  server: OrdersServer,
  dataDir: string,
  options: OrdersServerOptions,
): Promise<ServerProcess> {
  const script = ORDERS_SERVERS[server];
  const name = options.name ?? `${script}-${options.gzip ? 'gzip' : 'identity'}`;
  const started = await startServer({
    name,
    args: [ordersServerScript(server)],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: join(dataDir, `${name}.${server === 'j' ? 'json' : 'db'}`),
      GZIP: options.gzip ? '1' : '0',
      ...options.env,
    },
  });
  await seed(started.url, '/v1/orders', options.headers, ORDER_BODY, options.seedCount);
  return started;
}
