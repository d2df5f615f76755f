import { describe, expect, it } from 'vitest';
import { configFromEnvironment, ConfigError } from '../../../runtime/app/config.ts';
import { connectionsCheckingInterval, DEFAULT_CONNECTION_SETTINGS } from '../../../runtime/http/index.ts';
import { listen } from '../../../runtime/server/listen.ts';

describe('connection settings', () => {
  it('has documented defaults, every one set on the server rather than left to Node', async () => {
    expect(configFromEnvironment({}).connections).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 65_000,
      socketTimeoutMs: 120_000,
      maxConnections: 900,
      maxConnectionsPerAddress: 128,
      maxPendingConnectionsPerAddress: 64,
      maxRequestsPerSocket: 0,
    });
    const { server } = await listen('127.0.0.1', 0, DEFAULT_CONNECTION_SETTINGS);
    try {
      expect([server.requestTimeout, server.headersTimeout, server.keepAliveTimeout, server.maxConnections]).toEqual([
        30_000, 10_000, 65_000, 900,
      ]);
      // SOCKET_TIMEOUT_MS is watched by closeStalledConnections() (stalled-connections.test.ts), not by Node's own.
      expect(server.timeout).toBe(0);
    } finally {
      server.close();
    }
  });

  it.each([
    ['REQUEST_TIMEOUT_MS', { REQUEST_TIMEOUT_MS: '2500' }, { requestTimeoutMs: 2_500, headersTimeoutMs: 2_500 }],
    ['HEADERS_TIMEOUT_MS', { HEADERS_TIMEOUT_MS: '3000' }, { headersTimeoutMs: 3_000 }],
    ['MAX_CONNECTIONS', { MAX_CONNECTIONS: '50' }, { maxConnections: 50 }],
    ['KEEP_ALIVE_TIMEOUT_MS', { KEEP_ALIVE_TIMEOUT_MS: '5000' }, { keepAliveTimeoutMs: 5_000 }],
    ['SOCKET_TIMEOUT_MS', { SOCKET_TIMEOUT_MS: '9000' }, { socketTimeoutMs: 9_000 }],
    ['MAX_REQUESTS_PER_SOCKET', { MAX_REQUESTS_PER_SOCKET: '100' }, { maxRequestsPerSocket: 100 }],
    ['MAX_CONNECTIONS_PER_ADDRESS', { MAX_CONNECTIONS_PER_ADDRESS: '20' }, { maxConnectionsPerAddress: 20 }],
    [
      'MAX_PENDING_CONNECTIONS_PER_ADDRESS',
      { MAX_PENDING_CONNECTIONS_PER_ADDRESS: '4' },
      { maxPendingConnectionsPerAddress: 4 },
    ],
  ])('%s is read from the environment', (_name, env, want) => {
    expect(configFromEnvironment(env).connections).toMatchObject(want);
  });

  it.each([
    [{ REQUEST_TIMEOUT_MS: 'soon' }, /REQUEST_TIMEOUT_MS must be a whole number/],
    [{ MAX_CONNECTIONS: '0' }, /MAX_CONNECTIONS must be a whole number from 1/],
    [
      { REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' },
      /HEADERS_TIMEOUT_MS \(2000\) must not be longer than REQUEST_TIMEOUT_MS \(1000\)/,
    ],
    [{ ERROR_DOCS_URL: 'docs/errors' }, /ERROR_DOCS_URL "docs\/errors" must be an absolute http\(s\) URL/],
  ])('refuses %o at start-up', (env, message) => {
    expect(() => configFromEnvironment(env)).toThrow(ConfigError);
    expect(() => configFromEnvironment(env)).toThrow(message);
  });

  it('checks for late requests often enough that a timeout fires within a quarter of its length', () => {
    expect(connectionsCheckingInterval(DEFAULT_CONNECTION_SETTINGS)).toBe(1_000);
    expect(
      connectionsCheckingInterval({ ...DEFAULT_CONNECTION_SETTINGS, headersTimeoutMs: 400, requestTimeoutMs: 600 }),
    ).toBe(100);
    expect(
      connectionsCheckingInterval({ ...DEFAULT_CONNECTION_SETTINGS, headersTimeoutMs: 10, requestTimeoutMs: 10 }),
    ).toBe(50);
  });
});
