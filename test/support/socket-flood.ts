import { connect, type Socket } from 'node:net';

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
