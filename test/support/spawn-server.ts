import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

export interface SpawnedServer {
  readonly child: ChildProcess;
  /** The URL from the `listening on <url>` line. */
  readonly url: string;
  /** Every line the server printed so far (stdout and stderr). */
  readonly output: string[];
  /** Resolves with the exit code once the process ends. */
  readonly exited: Promise<number | null>;
}

export interface SpawnOptions {
  readonly cwd?: string;
  /** Its own process group (so a test can signal the whole group, as a terminal's Ctrl-C does). */
  readonly detached?: boolean;
  /** Arguments after `npm start --`. */
  readonly args?: readonly string[];
}

/**
 * Starts `node <entry>` (default generated/main.ts, what `npm start` runs) as its own process and
 * waits for its one line `listening on <url>`.
 */
export function spawnServer(env: Record<string, string>, entry = 'generated/main.ts', cwd = REPOSITORY, args: readonly string[] = []): Promise<SpawnedServer> {
  return spawnUntilListening(process.execPath, [entry, ...args], env, { cwd });
}

/** Runs `npm start` itself, as an operator or a container would, and waits for `listening on <url>`. */
export function spawnNpmStart(env: Record<string, string>, options: SpawnOptions = {}): Promise<SpawnedServer> {
  return spawnUntilListening('npm', ['start', ...(options.args === undefined ? [] : ['--', ...options.args])], env, options);
}

function spawnUntilListening(command: string, args: string[], env: Record<string, string>, { cwd = REPOSITORY, detached = false }: SpawnOptions): Promise<SpawnedServer> {
  // Vitest puts Vite's BASE_URL ('/') into process.env; the server must not inherit it.
  const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
  const child = spawn(command, args, { cwd, detached, env: { ...inherited, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('\n')}`)), 20_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const match = /^listening on (\S+)$/.exec(line);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, output, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
}

/** The server's JSON log lines with this `msg`, parsed. */
export function logLines(server: SpawnedServer, msg: string): Record<string, unknown>[] {
  return server.output
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);
}
