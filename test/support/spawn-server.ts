import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { childPids } from './process-memory.ts';

export const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

/** Node's flag that resolves the workspace packages to their TypeScript sources, as the npm scripts do. */
export const SOURCE_CONDITION = ['--conditions=source'];

export interface SpawnedServer {
  readonly child: ChildProcess;
  /** The server's own process: `child`, or under `npm start` npm's child (its shell became node by `exec`). */
  readonly pid: number;
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
export function spawnServer(
  env: Record<string, string>,
  entry = 'generated/main.ts',
  cwd = REPOSITORY,
  args: readonly string[] = [],
): Promise<SpawnedServer> {
  return spawnListening(process.execPath, [...SOURCE_CONDITION, entry, ...args], { cwd, env: serverEnvironment(env) });
}

/** Runs `npm start` itself, as an operator or a container would, and waits for `listening on <url>`. */
export async function spawnNpmStart(
  env: Record<string, string>,
  { cwd = REPOSITORY, detached = false, args }: SpawnOptions = {},
): Promise<SpawnedServer> {
  const npm = await spawnListening('npm', ['start', ...(args === undefined ? [] : ['--', ...args])], {
    cwd,
    detached,
    env: serverEnvironment(env),
  });
  const [server] = childPids(npm.pid);
  if (server === undefined) throw new Error(`npm start (pid ${npm.pid}) is listening but has no child process`);
  return { ...npm, pid: server };
}

/** The test process's environment for a server on a free port. */
function serverEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  // Vitest puts Vite's BASE_URL ('/') into process.env; the server must not inherit it.
  const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
  return { ...inherited, PORT: '0', ...env };
}

/** Starts any command that serves (`npm start`, a user's `node app.ts`) and waits for its `listening on <url>` line. */
export function spawnListening(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; detached?: boolean },
): Promise<SpawnedServer> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
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
        resolve({ child, pid: child.pid!, url: match[1]!, output, exited });
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
