import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

/** Node's flag that resolves the workspace packages to their TypeScript sources, as the npm scripts do. */
export const SOURCE_CONDITION = ['--conditions=source'];

export interface SpawnedServer {
  readonly child: ChildProcess;
  /** The URL from the `listening on <url>` line. */
  readonly url: string;
  /** Every line the server printed so far (stdout and stderr). */
  readonly output: string[];
  /** Resolves with the exit code once the process ends. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts `node <entry>` (default generated/main.ts, what `npm start` runs) as its own process and
 * waits for its one line `listening on <url>`.
 */
export function spawnServer(env: Record<string, string>, entry = 'generated/main.ts', cwd = REPOSITORY): Promise<SpawnedServer> {
  // Vitest puts Vite's BASE_URL ('/') into process.env; the server must not inherit it.
  const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
  return spawnListening(process.execPath, [...SOURCE_CONDITION, entry], { cwd, env: { ...inherited, PORT: '0', ...env } });
}

/** Starts any command that serves (`npm start`, a user's `node app.ts`) and waits for its `listening on <url>` line. */
export function spawnListening(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; detached?: boolean }): Promise<SpawnedServer> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached ?? false });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('\n')}`)), 15_000);
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
