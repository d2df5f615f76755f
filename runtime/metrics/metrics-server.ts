import { createHash, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import { createServer } from '../node/http.ts';
import type { Registry } from 'prom-client';

export interface MetricsServerOptions {
  readonly registry: Registry;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** When set, a scrape must send `Authorization: Bearer <token>` (Prometheus: `authorization: { credentials: ... }`). */
  readonly token?: string;
}

export interface RunningMetricsServer {
  readonly server: Server;
  /** `http://host:port/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The metrics on a port of their own, apart from the API: `GET /metrics` in the Prometheus text
 * format, nothing else (404). Kept off the API's port so that its exposure is the operator's choice
 * (METRICS_HOST binds it to an internal address; METRICS_TOKEN requires a bearer token) and so that
 * scrapes never count against, or show up in, the API's limits, logs and request metrics.
 */
export function startMetricsServer({
  registry,
  host,
  port,
  token,
}: MetricsServerOptions): Promise<RunningMetricsServer> {
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('not found: the metrics are at GET /metrics\n');
      return;
    }
    // Hashes of equal length, compared in constant time: the comparison says nothing of the token.
    if (expected !== undefined && !timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
      res
        .writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8', 'WWW-Authenticate': 'Bearer realm="metrics"' })
        .end('a bearer token is required\n');
      return;
    }
    registry.metrics().then(
      (text) =>
        res.writeHead(200, { 'Content-Type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      (error: unknown) =>
        res
          .writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
          .end(`metrics could not be collected: ${(error as Error).message}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : port;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        server,
        url: `http://${urlHost}:${bound}/metrics`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
