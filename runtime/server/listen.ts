import { createServer, type Server } from 'node:http';

/**
 * Starts an HTTP server on host:port with no handler yet; resolves with the port it got (port 0
 * picks a free one), so the API's base URL can name the real port before any request is served.
 */
export function listen(host: string, port: number): Promise<{ server: Server; port: number }> {
  const server = createServer();
  // Keep-alive sockets idle longer than a typical load balancer's, so it never reuses a closed one.
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address !== null ? address.port : port });
    });
  });
}
