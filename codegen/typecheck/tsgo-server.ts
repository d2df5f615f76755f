import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { API, DiagnosticCategory } from '@typescript/native-preview/unstable/async';
import { tsgoCommand } from './tsgo-command.ts';

/** How long tsgo may take to open its socket and accept the connection before the start counts as failed. */
const START_TIMEOUT_MS = 10_000;

/** How long to wait before trying again to reach a socket tsgo has not made, or not begun to listen on. */
const RETRY_MS = 5;

/** A tsgo process serving its API to this one, and what ends it. */
export interface TsgoServer {
  readonly api: API;
  /** tsgo's DiagnosticCategory.Error (the API's enum, loaded with it). */
  readonly errorCategory: DiagnosticCategory;
  /** Rejects when the process ends (killed, crashed): every request to a dead server would wait forever. */
  readonly exited: Promise<never>;
  /** Whether the process has been seen to end (exited has rejected). */
  hasEnded(): boolean;
  /** Ends the process and removes its socket. */
  close(): Promise<void>;
}

/**
 * Starts tsgo's API server (`tsgo --api --async --pipe SOCKET`) for a project root and connects to
 * it. The process is this module's own, not the API client's: its exit is seen (the client's requests
 * would never settle), and it is ended on close. Once connected, the server ends by itself when its
 * connection closes, so it does not outlive this process even when this one is killed (killed before
 * it has connected, it would wait for a client that never comes): so the start connects at once,
 * rather than at the first request. Its standard error is passed on through a pipe, not handed
 * over: a tsgo left waiting must not hold this process's output open, for whatever reads it to the
 * end (a CI runner, a shell's pipe) would wait with it.
 */
export async function startTsgoServer(root: string): Promise<TsgoServer> {
  const [tsgo, command] = await Promise.all([import('@typescript/native-preview/unstable/async'), tsgoCommand()]);
  const socket = join(tmpdir(), `convapi-tsgo-${process.pid}-${randomUUID().slice(0, 8)}.sock`);
  const child = spawn(command.file, [...command.leadingArgs, '--api', '--async', '--pipe', socket, '--cwd', root], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.pipe(process.stderr, { end: false });
  let ended = false;
  // The API client's connection, to be cut as soon as the process is seen gone (set once connected).
  let disconnect: (() => void) | undefined;
  const exited = new Promise<never>((_resolve, reject) => {
    const end = (error: Error) => {
      ended = true;
      disconnect?.();
      reject(error);
    };
    child.once('error', (error) => end(new Error(`tsgo could not start: ${error.message}`)));
    child.once('exit', (code, signal) => end(new Error(`tsgo ended (${signal ?? `exit ${code}`})`)));
  });
  // Seen by whoever awaits it; never an unhandled rejection when nobody is waiting.
  exited.catch(() => undefined);
  const close = async () => {
    // SIGKILL: a server no client has reached yet does not end on SIGTERM, and it holds nothing to save.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(socket, { force: true });
  };
  const api = new tsgo.API({ pipe: socket });
  const client = clientOf(api);
  try {
    await Promise.race([connectApi(api, socket, () => ended), exited]);
  } catch (error) {
    await close();
    throw error;
  }
  // Closing only disposes the connection and destroys the socket; nothing is left to wait for.
  disconnect = () => void client?.close().catch(() => undefined);
  return {
    api,
    errorCategory: tsgo.DiagnosticCategory.Error,
    exited,
    hasEnded: () => ended,
    close: async () => {
      // A live server is told to let go of its snapshots; an ended one was disconnected as it ended,
      // and nothing more is written to it.
      if (!ended) await api.close();
      await close();
    },
  };
}

/** The API's client, as far as this module uses it: its connection made, and closed. */
interface ApiClient {
  connect(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The API's connection to tsgo (`api.client`, not in its types): made as the server starts, and
 * closed as soon as tsgo is seen gone. A request written to an ended tsgo fails with EPIPE, and the API's JSON-RPC layer
 * (vscode-jsonrpc's sendRequest) then rejects a promise of its own that nobody holds, besides the
 * request's: Node reports it unhandled, and ends a process that has no handler for it (the
 * watcher). Once the connection is closed, a request is refused before anything is written, and
 * only the caller sees it. Undefined where the API keeps its connection elsewhere.
 */
function clientOf(api: API): ApiClient | undefined {
  const client = (api as unknown as { client?: { connect?: unknown; close?: unknown } }).client;
  return typeof client?.connect === 'function' && typeof client.close === 'function'
    ? (client as ApiClient)
    : undefined;
}

/**
 * Resolves once the API has connected to tsgo's socket; rejects after START_TIMEOUT_MS, or at once
 * when hasEnded() says tsgo is gone. tsgo makes its socket file (bind) a moment before it listens on
 * it: a connection tried in between is refused, and tried again, as one tried before the file exists
 * is. A failed try leaves the client unconnected, to try anew. Where the client is not reachable,
 * this waits for the socket file, and the first request connects.
 */
export async function connectApi(api: API, socket: string, hasEnded: () => boolean = () => false): Promise<void> {
  const client = clientOf(api);
  if (client === undefined) return socketReady(socket);
  const deadline = performance.now() + START_TIMEOUT_MS;
  for (;;) {
    try {
      return await client.connect();
    } catch (error) {
      // tsgo gone: its end is what the start reports.
      if (hasEnded() || !/\b(ECONNREFUSED|ENOENT)\b/.test((error as Error).message)) throw error;
      if (performance.now() > deadline)
        throw new Error(`tsgo did not accept a connection on ${socket} within ${START_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

/** Resolves once tsgo has made its socket; rejects after START_TIMEOUT_MS. */
async function socketReady(socket: string): Promise<void> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (!existsSync(socket)) {
    if (performance.now() > deadline) throw new Error(`tsgo did not open ${socket} within ${START_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
