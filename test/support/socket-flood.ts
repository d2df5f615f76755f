import { connect, type Socket } from 'node:net';
import { spawnServer, type SpawnedServer } from './spawn-server.ts';
import { newTestDatabase } from './test-database.ts';
import { issueToken } from './token-cli.ts';

/** The flooding client's own loopback address: probes come from 127.0.0.1. */
export const FLOOD_ADDRESS = '127.0.0.2';

/** Opens `count` connections from FLOOD_ADDRESS, each sending `send` (maybe nothing) and then sitting idle. */
export async function flood(url: string, count: number, send: string): Promise<Socket[]> {
  const { hostname, port } = new URL(url);
  const sockets: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect({ host: hostname, port: Number(port), localAddress: FLOOD_ADDRESS }, () => {
            if (send !== '') socket.write(send);
            resolve();
          });
          socket.on('error', () => resolve());
          socket.on('data', () => undefined);
          sockets.push(socket);
        }),
    ),
  );
  return sockets;
}

/** A server in a process of its own (the flood's sockets live in the test's), with one order for probes to read. */
export interface FloodTarget {
  readonly server: SpawnedServer;
  /** A probe's headers: User-Agent and a token. */
  readonly headers: Record<string, string>;
  /** The path of the order a probe reads. */
  readonly order: string;
}

export async function floodTarget(env: Record<string, string> = {}): Promise<FloodTarget> {
  const databaseUrl = await newTestDatabase();
  const server = await spawnServer({ DATABASE_URL: databaseUrl, JOB_WORKERS: '0', ...env });
  const headers = { 'User-Agent': 'probe', Authorization: `Bearer ${issueToken(databaseUrl, 'probe')}` };
  const created = await fetch(`${server.url}/v1/orders`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ item: 'probe', quantity: 1 }),
  });
  if (created.status !== 201) throw new Error(`the probe's order was not created: ${created.status}`);
  return { server, headers, order: new URL(created.headers.get('location')!).pathname };
}
