import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONNECTION_SETTINGS } from '../../../runtime/http/index.ts';
import { listen } from '../../../runtime/server/listen.ts';
import { openSocket } from '../../support/raw-http.ts';

const TIMEOUT_MS = 1_500;
/**
 * The slow reader's setting: far longer than its gaps between reads (400 ms), so that the reader, on
 * the same event loop as the server, keeps its connection when a loaded machine delays its timers.
 */
const SLOW_READER_TIMEOUT_MS = 4_000;
/**
 * The slow reader's response: more than its bursts can take in the test's time, even on an idle
 * machine's loopback (a burst of 20 ms may take tens of MiB). A response read to its end would leave
 * an idle connection, which the setting rightly closes. Written only as it is read.
 */
const ENDLESS_BYTES = 64 * 1024 * 1024 * 1024;
// Far more than the two systems' socket buffers hold: the server still has most of it to write.
const RESPONSE_BYTES = 64 * 1024 * 1024;

const servers: Server[] = [];
const clients: Socket[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) server.close();
});

/**
 * A server with SOCKET_TIMEOUT_MS at `socketTimeoutMs` answering one large response, written whole or
 * streamed in pieces of 64 KiB (each once the one before has been taken); resolves, once the server
 * has closed that response's connection, how long after the response began.
 */
async function largeResponseServer(
  writing: 'whole' | 'streamed',
  socketTimeoutMs = TIMEOUT_MS,
  bytes = RESPONSE_BYTES,
): Promise<{ url: string; closedAfterMs: Promise<number> }> {
  const { server, port } = await listen('127.0.0.1', 0, {
    ...DEFAULT_CONNECTION_SETTINGS,
    socketTimeoutMs,
    keepAliveTimeoutMs: 60_000,
  });
  servers.push(server);
  const closedAfterMs = new Promise<number>((resolve) => {
    server.on('request', (_req, res: ServerResponse) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes });
      const began = Date.now();
      res.socket!.once('close', () => resolve(Date.now() - began));
      if (writing === 'whole') res.end(Buffer.alloc(bytes, 1));
      else Readable.from(pieces(bytes, 64 * 1024)).pipe(res);
    });
  });
  return { url: `http://127.0.0.1:${port}`, closedAfterMs };
}

function* pieces(total: number, size: number): Generator<Buffer> {
  const piece = Buffer.alloc(size, 1);
  for (let sent = 0; sent < total; sent += size) yield total - sent >= size ? piece : piece.subarray(0, total - sent);
}

/** Sends one request on a connection that reads nothing of its own accord. */
async function pausedClient(url: string): Promise<Socket> {
  const client = await openSocket(url);
  clients.push(client);
  client.on('error', () => undefined);
  client.pause();
  client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  return client;
}

describe('SOCKET_TIMEOUT_MS', () => {
  it.each(['whole', 'streamed'] as const)(
    'a client that stops reading a response written %s is closed at the setting, not at twice it',
    async (writing) => {
      const { url, closedAfterMs } = await largeResponseServer(writing);
      await pausedClient(url);
      const elapsed = await closedAfterMs;
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      // Node's own socket timeout closed it after 2 × 1,500 ms.
      expect(elapsed).toBeLessThan(TIMEOUT_MS * 1.5);
    },
  );

  // Progress within one write is seen when the system has taken the whole write (Node counts no
  // less): a client reading slowly keeps its connection when the response comes in pieces.
  it('a client that keeps reading a streamed response, in short bursts far apart, is not closed', async () => {
    const { url, closedAfterMs } = await largeResponseServer('streamed', SLOW_READER_TIMEOUT_MS, ENDLESS_BYTES);
    const client = await pausedClient(url);
    // Reads for 20 ms every 400 ms: what it takes lets the server write more, so the connection moves.
    client.on('data', () => undefined);
    client.pause();
    const reading = setInterval(() => {
      client.resume();
      setTimeout(() => client.pause(), 20);
    }, 400);
    try {
      const outcome = await Promise.race([
        closedAfterMs.then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('still open'), SLOW_READER_TIMEOUT_MS * 2)),
      ]);
      expect(outcome).toBe('still open');
    } finally {
      clearInterval(reading);
    }
  });

  it('a connection on which nothing is sent either way is closed at the setting', async () => {
    const { server, port } = await listen('127.0.0.1', 0, {
      ...DEFAULT_CONNECTION_SETTINGS,
      // Longer than the socket timeout: it is the one that closes.
      headersTimeoutMs: 10_000,
      socketTimeoutMs: TIMEOUT_MS,
    });
    servers.push(server);
    const client = await openSocket(`http://127.0.0.1:${port}`);
    clients.push(client);
    const started = Date.now();
    await new Promise((resolve) => client.once('close', resolve));
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 1.5);
  });
});
