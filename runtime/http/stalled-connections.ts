import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What moved on a connection when it was last looked at, and since when nothing has. */
interface Progress {
  bytesRead: number;
  bytesWritten: number;
  /** Bytes the socket had handed to the system but the system had not yet taken. */
  queued: number;
  since: number;
}

/** The bytes of a socket's writes the system has not taken yet: they shrink while the client reads. */
function queuedBytes(socket: Socket): number {
  return (socket as Socket & { _handle?: { writeQueueSize?: number } | null })._handle?.writeQueueSize ?? 0;
}

/**
 * How often connections are looked at: a tenth of the timeout, so one closes within 10% past it,
 * never more than every 20 ms nor less than every second.
 */
export function stalledCheckingInterval(timeoutMs: number): number {
  return Math.min(1_000, Math.max(20, Math.floor(timeoutMs / 10)));
}

/**
 * Closes every connection of `server` on which nothing moved either way for `timeoutMs`
 * (SOCKET_TIMEOUT_MS): no byte read, none written, and none of what was written taken by the
 * client. A client that stops reading its response is closed at the setting.
 *
 * Node's own socket timeout (`server.timeout`) is left off: when its time comes while a write is
 * pending, it compares what is still queued with the size of that whole write, and as soon as the
 * system has taken any of it (always, once a client stops reading midway) it starts counting again,
 * so such a client was closed only after twice the setting. Here progress is what the system has
 * taken since the last look, read as Node itself reads it (the handle's writeQueueSize).
 *
 * One timer for the whole server, armed only while it has connections, looking at each in turn.
 */
export function closeStalledConnections(server: Server, timeoutMs: number): void {
  server.timeout = 0;
  const watched = new Map<Socket, Progress>();
  const everyMs = stalledCheckingInterval(timeoutMs);
  let timer: NodeJS.Timeout | undefined;

  const look = () => {
    const now = Date.now();
    for (const [socket, progress] of watched) {
      const { bytesRead, bytesWritten } = socket;
      const queued = queuedBytes(socket);
      if (bytesRead !== progress.bytesRead || bytesWritten !== progress.bytesWritten || queued !== progress.queued) {
        progress.bytesRead = bytesRead;
        progress.bytesWritten = bytesWritten;
        progress.queued = queued;
        progress.since = now;
      } else if (now - progress.since >= timeoutMs) {
        watched.delete(socket);
        socket.destroy();
      }
    }
    if (watched.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  server.on('connection', (socket: Socket) => {
    if (socket.destroyed) return;
    watched.set(socket, { bytesRead: 0, bytesWritten: 0, queued: 0, since: Date.now() });
    socket.once('close', () => watched.delete(socket));
    if (timer === undefined) {
      timer = setInterval(look, everyMs);
      // The connections keep the process alive, not this timer.
      timer.unref();
    }
  });
}
