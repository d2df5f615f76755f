import type { Server } from 'node:http';
import { closeStalledConnections } from './stalled-connections.ts';

/**
 * How long a connection may take and how many there may be: every limit Node would otherwise leave
 * at its own defaults, chosen here and configurable (docs/configuration.md).
 */
export interface ConnectionSettings {
  /**
   * The whole request, headers and body, must arrive within this many ms (REQUEST_TIMEOUT_MS).
   * Beyond it: 408 `request_timeout` with the error body, and the connection closed. It does not
   * limit the handler: a slow operation answers 102 Processing instead.
   */
  readonly requestTimeoutMs: number;
  /** The headers must arrive within this many ms (HEADERS_TIMEOUT_MS, at most the request timeout): 408 beyond. */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this many ms (KEEP_ALIVE_TIMEOUT_MS). */
  readonly keepAliveTimeoutMs: number;
  /**
   * A connection on which nothing at all is sent or received for this many ms is closed
   * (SOCKET_TIMEOUT_MS): a client that stops reading its response cannot hold a socket forever.
   */
  readonly socketTimeoutMs: number;
  /**
   * Connections open at once (MAX_CONNECTIONS). Beyond it Node closes each new connection as it is
   * accepted, so the server keeps file descriptors and memory for the ones it serves.
   */
  readonly maxConnections: number;
  /**
   * Connections one client address may hold open (MAX_CONNECTIONS_PER_ADDRESS), and how many of them
   * may not yet have sent a complete request head (MAX_PENDING_CONNECTIONS_PER_ADDRESS); addresses in
   * TRUSTED_PROXIES are not bounded. See server/connection-fairness.ts.
   */
  readonly maxConnectionsPerAddress: number;
  readonly maxPendingConnectionsPerAddress: number;
  /** Requests served on one keep-alive connection before it is closed (MAX_REQUESTS_PER_SOCKET; 0: no limit). */
  readonly maxRequestsPerSocket: number;
}

export const DEFAULT_CONNECTION_SETTINGS: ConnectionSettings = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  // Longer than a typical load balancer's idle timeout (60 s), so it never reuses a connection we closed.
  keepAliveTimeoutMs: 65_000,
  socketTimeoutMs: 120_000,
  // Well below the usual 1,024 file descriptors of a process, which also holds the database files.
  maxConnections: 900,
  // A browser opens 6 connections to a host, an HTTP client's pool or a load generator 10 to 100,
  // all at once: one address may hold about a seventh of the server's connections, half of them
  // not having sent a request yet (a burst of new connections is accepted before any has spoken).
  maxConnectionsPerAddress: 128,
  maxPendingConnectionsPerAddress: 64,
  maxRequestsPerSocket: 0,
};

/**
 * How often Node looks for connections past their headers or request timeout: often enough that a
 * timeout fires within a quarter of its length (Node's own default is every 30 s), never more than
 * every 50 ms nor less than every second.
 */
export function connectionsCheckingInterval(settings: ConnectionSettings): number {
  const shortest = Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs);
  return Math.min(1_000, Math.max(50, Math.floor(shortest / 4)));
}

/** Sets every limit of `settings` on a server, once (the checking interval goes to createServer()). */
export function applyConnectionSettings(server: Server, settings: ConnectionSettings): void {
  server.requestTimeout = settings.requestTimeoutMs;
  server.headersTimeout = settings.headersTimeoutMs;
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  server.maxConnections = settings.maxConnections;
  server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
  // In place of Node's socket timeout, which closes a client that stopped reading at twice the setting.
  closeStalledConnections(server, settings.socketTimeoutMs);
}

/** Reads one whole number from the environment: its default when unset, an error naming it when out of range. */
export type WholeNumberReader = (name: string, fallback: number, min: number, max: number) => number;

/** The settings from the environment variables named on each field, read through the server config's reader. */
export function connectionSettingsFrom(whole: WholeNumberReader): ConnectionSettings {
  const defaults = DEFAULT_CONNECTION_SETTINGS;
  const requestTimeoutMs = whole('REQUEST_TIMEOUT_MS', defaults.requestTimeoutMs, 1, 3_600_000);
  const headersTimeoutMs = whole(
    'HEADERS_TIMEOUT_MS',
    Math.min(defaults.headersTimeoutMs, requestTimeoutMs),
    1,
    3_600_000,
  );
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: whole('KEEP_ALIVE_TIMEOUT_MS', defaults.keepAliveTimeoutMs, 1, 3_600_000),
    socketTimeoutMs: whole('SOCKET_TIMEOUT_MS', defaults.socketTimeoutMs, 1, 3_600_000),
    maxConnections: whole('MAX_CONNECTIONS', defaults.maxConnections, 1, 1_000_000),
    maxConnectionsPerAddress: whole('MAX_CONNECTIONS_PER_ADDRESS', defaults.maxConnectionsPerAddress, 1, 1_000_000),
    maxPendingConnectionsPerAddress: whole(
      'MAX_PENDING_CONNECTIONS_PER_ADDRESS',
      defaults.maxPendingConnectionsPerAddress,
      1,
      1_000_000,
    ),
    maxRequestsPerSocket: whole('MAX_REQUESTS_PER_SOCKET', defaults.maxRequestsPerSocket, 0, 1_000_000),
  };
}
