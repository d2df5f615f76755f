import type { Server } from 'node:http';
import { createServer } from '../node/http.ts';
import { HeaderListResponse } from './header-list-response.ts';
import {
  applyConnectionSettings,
  connectionsCheckingInterval,
  DEFAULT_CONNECTION_SETTINGS,
  type ConnectionSettings,
} from '../http/connection-settings.ts';

/**
 * Connections the kernel may hold accepted before the server takes them (the kernel caps it at
 * net.core.somaxconn). Node's default of 511 overflows under a burst of connections, and a client
 * whose connection finds the queue full is made to wait a whole second before its next attempt.
 */
const LISTEN_BACKLOG = 4096;

/**
 * Starts an HTTP server on host:port with no handler yet; resolves with the port it got (port 0
 * picks a free one), so the API's base URL can name the real port before any request is served.
 * Every timeout and the connection cap are set from `settings`, none left to Node's defaults.
 * Responses keep their headers in a list (HeaderListResponse), handed to Node once.
 */
export function listen(
  host: string,
  port: number,
  settings: ConnectionSettings = DEFAULT_CONNECTION_SETTINGS,
): Promise<{ server: Server; port: number }> {
  // Host is checked by requireHost(), which answers with the conventions' error body, not Node's bare 400.
  const server: Server = createServer({
    requireHostHeader: false,
    ServerResponse: HeaderListResponse,
    connectionsCheckingInterval: connectionsCheckingInterval(settings),
  });
  applyConnectionSettings(server, settings);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address !== null ? address.port : port });
    });
  });
}
