import request from 'supertest';
import { api as generatedApi } from '../../generated/api.ts';
import { serve, type RunningServer } from '../../runtime/server/serve.ts';
import type { ApiDefinition } from '../../runtime/index.ts';
import { issuedTokens, issueToken } from './token-cli.ts';
import { captureLogs, logProblems } from './log-capture.ts';
import { newTestDatabase } from './test-database.ts';

export interface TestApi {
  /** The server's log lines so far (JSON, one a line). */
  readonly logs: readonly string[];
  /** http://127.0.0.1:<port>, also the BASE_URL of every URI in bodies. */
  readonly url: string;
  readonly databaseUrl: string;
  readonly running: RunningServer;
  /** Every line the server logged so far (JSON). close() fails when one holds a secret or lacks a member. */
  readonly logLines: string[];
  /** Headers every well-behaved client sends (User-Agent, Authorization with a fresh token, Accept). */
  readonly headers: Record<string, string>;
  get(path: string): request.Test;
  post(path: string, body?: unknown): request.Test;
  put(path: string, body?: unknown): request.Test;
  patch(path: string, body?: unknown): request.Test;
  delete(path: string): request.Test;
  /** A bare supertest agent on the server, with no default headers. */
  raw(): ReturnType<typeof request>;
  close(): Promise<void>;
}

export interface StartApiOptions {
  readonly env?: Record<string, string>;
  readonly api?: ApiDefinition;
  /** Reuse a database (two servers on one database, restarts). Default: a new one on the suite's engine. */
  readonly databaseUrl?: string;
}

/**
 * Starts the generated server on a real loopback port with a fresh database on the suite's engine
 * (SQLite, or PostgreSQL in the `postgres` project), and gives a client
 * that sends the headers the conventions require.
 */
export async function startApi({ env = {}, api = generatedApi, databaseUrl }: StartApiOptions = {}): Promise<TestApi> {
  const dbUrl = databaseUrl ?? (await newTestDatabase());
  const { logger, lines } = captureLogs();
  const running = await serve(api, { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: dbUrl, ...env }, { logger });
  const url = running.url;
  // A client with a bearer token issued by the token CLI on the server's own store, as an operator would.
  const token = issueToken(dbUrl, 'e2e-tests');
  const headers: Record<string, string> = {
    'User-Agent': 'e2e-tests/1.0',
    Accept: 'application/json',
    Authorization: `Bearer ${token}`,
  };
  const withHeaders = (test: request.Test) => test.set(headers);
  const agent = () => request(url);
  const send = (test: request.Test, body: unknown) => (body === undefined ? test : test.send(body as object));
  return {
    logs: lines,
    url,
    databaseUrl: dbUrl,
    running,
    logLines: lines,
    headers,
    get: (path) => withHeaders(agent().get(path)),
    post: (path, body) => send(withHeaders(agent().post(path)), body),
    put: (path, body) => send(withHeaders(agent().put(path)), body),
    patch: (path, body) => send(withHeaders(agent().patch(path)), body),
    delete: (path) => withHeaders(agent().delete(path)),
    raw: agent,
    close: async () => {
      await running.stop();
      // Every e2e suite's server logs are checked: JSON, the request members, no secret, no stack for a 4xx.
      const problems = logProblems(lines, issuedTokens);
      if (problems.length > 0) throw new Error(`the server's log lines:\n${problems.slice(0, 10).join('\n')}`);
      if (!lines.some((line) => line.includes('"msg":"request"'))) throw new Error('the server logged no request line');
    },
  };
}
