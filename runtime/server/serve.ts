import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import { createApi, type CreatedApi } from '../app/create-api.ts';
import { configFromEnvironment, type ServerConfig } from '../app/config.ts';
import type { ApiDefinition } from '../services/api-definition.ts';
import { createLogger, silentLogger, writePlainLine, type Logger } from '../logging/index.ts';
import { describeDatabaseUrl, IN_MEMORY, parseDatabaseUrl } from '../storage/index.ts';
import { listen } from './listen.ts';
import { requestListener } from './request-listener.ts';
import { answerClientErrors } from './client-errors.ts';
import { shareConnectionsFairly } from './connection-fairness.ts';
import { startMetricsServer, type RunningMetricsServer } from '../metrics/index.ts';
import { stopGracefully, type ShutdownReport } from './stop-gracefully.ts';
import { onShutdownSignals } from './shutdown-signals.ts';
import { returnHeapWhenIdle } from './idle-heap-return.ts';

export interface RunningServer {
  readonly server: Server;
  readonly api: CreatedApi;
  readonly config: ServerConfig;
  readonly url: string;
  readonly logger: Logger;
  /** `http://host:port/metrics`, when METRICS_PORT is set. */
  readonly metricsUrl: string | undefined;
  /**
   * Graceful stop: new requests get 503, in-flight ones get until `timeoutMs` (default
   * SHUTDOWN_TIMEOUT_MS) to finish, then their connections are closed; the store is closed last.
   * Calling it again returns the same promise.
   */
  stop(options?: { readonly timeoutMs?: number }): Promise<ShutdownReport>;
}

export interface ServeOptions {
  /** Where the server logs. Default: a logger that writes nothing. */
  readonly logger?: Logger;
}

/** Serves an API on host:port and returns a handle that stops it gracefully. */
export async function serve(
  apiDefinition: ApiDefinition,
  env: NodeJS.ProcessEnv,
  { logger = silentLogger() }: ServeOptions = {},
): Promise<RunningServer> {
  const requested = configFromEnvironment(env);
  const { server, port } = await listen(requested.host, requested.port, requested.connections);
  const refusals = {
    server: requested.serverHeader,
    ...(requested.documentFor === undefined ? {} : { documentFor: requested.documentFor }),
  };
  answerClientErrors(server, refusals);
  // One client address cannot hold the connections every other client needs (health checks included).
  const connections = shareConnectionsFairly(server, requested.connections, {
    ...refusals,
    exempt: requested.trustedProxies,
  });
  // With PORT=0 the port is known only now; BASE_URL defaults to it.
  const config = env.BASE_URL ? requested : configFromEnvironment({ ...env, PORT: String(port) });
  let api: CreatedApi;
  try {
    api = await createApi(apiDefinition, { config, logger });
  } catch (error) {
    server.close();
    throw error;
  }
  let metricsServer: RunningMetricsServer | undefined;
  try {
    if (api.metrics !== undefined && config.metrics !== undefined) {
      metricsServer = await startMetricsServer({
        registry: api.metrics.registry,
        host: config.metrics.host,
        port: config.metrics.port,
        ...(config.metrics.token === undefined ? {} : { token: config.metrics.token }),
      });
    }
  } catch (error) {
    server.close();
    await api.close();
    throw error;
  }
  server.on('request', connections.track(requestListener(api.app, { arrivals: api.context.store })));
  // A burst of large pages leaves its garbage resident while the server waits for the next one.
  const stopHeapReturn =
    config.heapReturnIntervalMs === 0
      ? () => {}
      : returnHeapWhenIdle({ activity: api.drain, everyMs: config.heapReturnIntervalMs });
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let stopping: Promise<ShutdownReport> | undefined;
  const stop = ({ timeoutMs = config.shutdownTimeoutMs }: { readonly timeoutMs?: number } = {}) => {
    stopHeapReturn();
    return (stopping ??= stopGracefully({
      server,
      api,
      timeoutMs,
      logger,
      ...(metricsServer === undefined ? {} : { alsoClose: [metricsServer] }),
    }));
  };
  return { server, api, config, url: `http://${host}:${port}`, logger, metricsUrl: metricsServer?.url, stop };
}

/** The start command's arguments: `--issue-token NAME` (repeatable) prints a token for that client once started. */
function startArguments(argv: readonly string[]): { issueTokens: string[] } {
  const { values } = parseArgs({
    args: [...argv],
    options: { 'issue-token': { type: 'string', multiple: true } },
    strict: true,
    allowPositionals: false,
  });
  const issueTokens = values['issue-token'] ?? [];
  const blank = issueTokens.find((name) => name.trim() === '');
  if (blank !== undefined) throw new Error('--issue-token needs a client name');
  return { issueTokens };
}

/**
 * The entry point of `npm start`: serves the API with settings from the environment, logs a start
 * line (JSON, or text with LOG_FORMAT=pretty) and prints `listening on <url>` alone on its line when
 * ready; on SIGTERM/SIGINT drains within SHUTDOWN_TIMEOUT_MS and exits 0, and on a second signal
 * exits at once. `npm start -- --issue-token NAME` also prints a bearer token for client NAME, issued
 * in the server's own store: the one way to get a token for a `sqlite::memory:` database, which no
 * other process can reach.
 */
export async function serveFromEnvironment(
  apiDefinition: ApiDefinition,
  env: NodeJS.ProcessEnv,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  let running: RunningServer;
  let logger: Logger | undefined;
  let issueTokens: string[];
  try {
    ({ issueTokens } = startArguments(argv));
    const config = configFromEnvironment(env);
    logger = createLogger({ level: config.logLevel, format: config.logFormat });
    running = await serve(apiDefinition, env, { logger });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (logger === undefined) console.error(`cannot start: ${message}`);
    else logger.fatal(`cannot start: ${message}`);
    process.exit(1);
  }
  const { config } = running;
  // Before the listening line: whoever waits for it may signal at once.
  onShutdownSignals({
    stop: () => running.stop().then(() => undefined),
    onSignal: (signal, effect) => {
      if (effect === 'graceful')
        running.logger.info(
          { signal, in_flight: running.api.drain.inFlight, timeout_ms: config.shutdownTimeoutMs },
          'shutdown started',
        );
      else if (effect === 'duplicate')
        running.logger.debug(
          { signal },
          'the same signal delivered again (process group and npm); already shutting down',
        );
      else
        running.logger.warn(
          { signal, in_flight: running.api.drain.inFlight },
          'second signal: exiting at once, without waiting for the shutdown',
        );
    },
    onStopFailed: (error) => running.logger.error({ err: error }, 'shutdown failed'),
  });
  running.logger.info(
    {
      address: running.url,
      base_url: config.baseUrl,
      engine: parseDatabaseUrl(config.databaseUrl).kind,
      database: describeDatabaseUrl(config.databaseUrl),
      node: process.version,
      versions: apiDefinition.versions,
      limits: config.limits,
      shutdown_timeout_ms: config.shutdownTimeoutMs,
      job_queues: apiDefinition.jobQueues.map((queue) => queue.name),
      metrics: running.metricsUrl ?? 'off',
    },
    'server started',
  );
  const location = parseDatabaseUrl(config.databaseUrl);
  if (location.kind === 'sqlite' && location.path === IN_MEMORY && issueTokens.length === 0) {
    running.logger.warn(
      'DATABASE_URL=sqlite::memory: lives in this process only: the token CLI cannot issue tokens for it; start with `npm start -- --issue-token NAME`',
    );
  }
  // Printed, never logged: a token is in no log line. Before the listening line, so it is there once a script sees that.
  for (const client of issueTokens)
    writePlainLine(
      running.logger,
      `issued a token for client ${client}: ${await running.api.tokens.issue({ client })}`,
    );
  // The contract's line, alone on its line whatever the log format: scripts and tests wait for it.
  writePlainLine(running.logger, `listening on ${running.url}`);
}
