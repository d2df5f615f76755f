import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, type DocumentFor } from '../errors/index.ts';
import { onResponseClose } from '../http/index.ts';
import { rawErrorResponse } from './client-errors.ts';

export interface ConnectionFairnessSettings {
  /** Connections open at once in all (MAX_CONNECTIONS): near it, idle keep-alive connections are closed first. */
  readonly maxConnections: number;
  /** Connections one client address may hold open (MAX_CONNECTIONS_PER_ADDRESS). */
  readonly maxConnectionsPerAddress: number;
  /**
   * Connections of one address that have not yet sent a complete request head
   * (MAX_PENDING_CONNECTIONS_PER_ADDRESS): a client that opens sockets and sends nothing.
   */
  readonly maxPendingConnectionsPerAddress: number;
}

export interface ConnectionFairnessOptions {
  /** Addresses not bounded per address (TRUSTED_PROXIES: every client behind a proxy shares its address). */
  readonly exempt?: readonly string[];
  /** The Server header of the refusal. */
  readonly server?: string;
  readonly documentFor?: DocumentFor;
}

/** What fairness knows of one socket: its address, and how many of its requests are being answered. */
interface Tracked {
  readonly address: string;
  /** Requests whose head has arrived and whose response has not finished. */
  active: number;
  /** Whether the socket has sent at least one complete request head. */
  spoken: boolean;
}

/** The connections of one address: how many are open, and which have sent nothing yet. */
interface AddressConnections {
  open: number;
  readonly pending: Set<Socket>;
}

const TRACKED = Symbol('connectionFairness');
type FairSocket = Socket & { [TRACKED]?: Tracked };

/**
 * Shares the server's connections among client addresses, so that one address with thousands of
 * sockets cannot starve the others (health checks and readiness included):
 * - each address may hold `maxConnectionsPerAddress` connections, and `maxPendingConnectionsPerAddress`
 *   of them that have not yet sent a complete request head; past either, its new connection is
 *   answered 503 `too_many_connections` (Retry-After) and closed before any request on it is read;
 * - when all the server's connections near `maxConnections` (nine tenths of it), the connections that
 *   have sat idle between requests longest are closed first, whoever holds them, so a new client
 *   finds room before Node's own cap refuses it.
 * A connection is idle between a finished response and the next request's head; closing it loses
 * nothing (a client reopens one, as after the keep-alive timeout). The server's request listener
 * is installed through `track()`, which notes each request's arrival.
 */
export function shareConnectionsFairly(
  server: Server,
  settings: ConnectionFairnessSettings,
  { exempt = [], ...refusal }: ConnectionFairnessOptions = {},
): FairConnections {
  const exempted = new Set(exempt);
  const addresses = new Map<string, AddressConnections>();
  // Every idle connection, longest idle first (a Set keeps insertion order).
  const idle = new Set<Socket>();
  let open = 0;
  // Past this many connections, idle ones are closed to make room.
  const nearBound = Math.max(1, Math.floor(settings.maxConnections * 0.9));

  const connectionsOf = (address: string) => {
    let connections = addresses.get(address);
    if (connections === undefined) {
      connections = { open: 0, pending: new Set() };
      addresses.set(address, connections);
    }
    return connections;
  };
  const reclaimOldest = (sockets: Set<Socket>): boolean => {
    const oldest = sockets.values().next().value;
    if (oldest === undefined) return false;
    forget(oldest, true);
    oldest.destroy();
    return true;
  };
  /** Takes a socket out of every set; with `closing`, out of the counts too (its 'close' then does nothing). */
  const forget = (socket: FairSocket, closing: boolean) => {
    const tracked = socket[TRACKED];
    if (tracked === undefined) return;
    idle.delete(socket);
    if (!closing) return;
    const connections = addresses.get(tracked.address);
    socket[TRACKED] = undefined;
    open -= 1;
    if (connections === undefined) return;
    connections.pending.delete(socket);
    connections.open -= 1;
    if (connections.open === 0) addresses.delete(tracked.address);
  };
  const refuse = (socket: Socket) => {
    const error = new ApiError(
      503,
      'too_many_connections',
      'this client address holds as many connections as the server allows it; reuse one, or try again later',
      {
        headers: { 'Retry-After': '1' },
      },
    );
    // Written at once (a fresh socket's write goes straight to the kernel), then closed before Node's
    // HTTP parser reads a byte of it: a refused connection costs no request handling.
    socket.write(rawErrorResponse(error, refusal));
    socket.destroy();
  };

  // Before Node's own connection listener, which would start parsing the socket's requests.
  server.prependListener('connection', (socket: FairSocket) => {
    const address = socket.remoteAddress ?? '';
    const bounded = !exempted.has(address);
    const connections = bounded ? connectionsOf(address) : undefined;
    if (connections !== undefined) {
      // Its own idle connections are not closed to let a new one in: a client at its bound reuses
      // them, and a flood that did would have every new connection's request served in turn.
      if (
        connections.open >= settings.maxConnectionsPerAddress ||
        connections.pending.size >= settings.maxPendingConnectionsPerAddress
      ) {
        if (connections.open === 0) addresses.delete(address);
        refuse(socket);
        return;
      }
      connections.open += 1;
      connections.pending.add(socket);
    }
    socket[TRACKED] = { address, active: 0, spoken: false };
    open += 1;
    while (open > nearBound && reclaimOldest(idle));
    socket.once('close', () => forget(socket, true));
  });

  // Called for each request as its head arrives: its connection is busy until the response closes.
  const arrived = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as FairSocket;
    const tracked = socket[TRACKED];
    if (tracked === undefined) return;
    if (!tracked.spoken) {
      tracked.spoken = true;
      addresses.get(tracked.address)?.pending.delete(socket);
    }
    tracked.active += 1;
    forget(socket, false);
    onResponseClose(res, responseClosed);
  };
  // One listener for every response: a response emits 'close' once, and is dropped after it, so
  // nothing needs removing, and no closure or once() wrapper is made per request. The socket is the
  // request's (a response lets go of its own once finished); a socket no longer tracked has closed.
  function responseClosed(this: ServerResponse) {
    const socket = this.req.socket as FairSocket;
    const tracked = socket[TRACKED];
    if (tracked === undefined) return;
    tracked.active -= 1;
    // Idle from now until its next request's head: the first to go when the server nears its bound.
    if (tracked.active === 0 && !socket.destroyed) idle.add(socket);
  }
  return {
    track: (listener) => (req, res) => {
      arrived(req, res);
      listener(req, res);
    },
  };
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** What shareConnectionsFairly() hands back: the server's one request listener must go through it. */
export interface FairConnections {
  /** `listener`, noting first each request's arrival (its connection is then neither pending nor idle). */
  track(listener: RequestListener): RequestListener;
}
