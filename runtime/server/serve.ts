import type { Server } from 'node:http';
import { createApi, type CreatedApi } from '../app/create-api.ts';
import { configFromEnvironment, ConfigError } from '../app/config.ts';
import type { ApiDefinition } from '../app/api-definition.ts';
import { listen } from './listen.ts';
import { answerClientErrors } from './client-errors.ts';

export interface RunningServer {
  readonly server: Server;
  readonly api: CreatedApi;
  readonly url: string;
  /** Graceful stop: new requests get 503, in-flight ones finish, then the store closes. */
  stop(): Promise<void>;
}

/** Serves an API on host:port and returns a handle that stops it gracefully. */
export async function serve(apiDefinition: ApiDefinition, env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const requested = configFromEnvironment(env);
  const { server, port } = await listen(requested.host, requested.port, requested.connections);
  answerClientErrors(server, { server: requested.serverHeader, ...(requested.documentFor === undefined ? {} : { documentFor: requested.documentFor }) });
  // With PORT=0 the port is known only now; BASE_URL defaults to it.
  const config = env.BASE_URL ? requested : configFromEnvironment({ ...env, PORT: String(port) });
  let api: CreatedApi;
  try {
    api = createApi(apiDefinition, { config });
  } catch (error) {
    server.close();
    throw error;
  }
  server.on('request', api.app.callback());
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await api.drain.drain();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Nothing is in flight any more: idle keep-alive sockets would only hold the close open.
        server.closeAllConnections();
      });
      await api.close();
    })());
  return { server, api, url: `http://${host}:${port}`, stop };
}

/**
 * The entry point of `npm start`: serves the API with settings from the environment, prints one line
 * `listening on <url>` when ready, and on SIGTERM/SIGINT drains and exits 0.
 */
export async function serveFromEnvironment(apiDefinition: ApiDefinition, env: NodeJS.ProcessEnv): Promise<void> {
  let running: RunningServer;
  try {
    running = await serve(apiDefinition, env);
  } catch (error) {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    console.error(`cannot start: ${message}`);
    process.exit(1);
  }
  console.log(`listening on ${running.url}`);
  const shutdown = () => {
    void running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
