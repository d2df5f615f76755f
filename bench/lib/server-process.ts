import { spawn, type ChildProcess } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { procStatusKib } from './memory.ts';
import { pinServer } from './cpu-affinity.ts';
import { SOURCE_CONDITION } from './paths.ts';

interface CommonStartOptions {
  /** Shown in errors and tables. */
  readonly name: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** A command that runs node for the bench (systemd-run … --, to start it under a memory limit). */
  readonly launcher?: readonly string[];
  /** How long start-up may take before the bench gives up. Default 60 s (1,000 collections migrate first). */
  readonly timeoutMs?: number;
  /** How long stop() waits after SIGTERM before SIGKILL. Default 5 s. */
  readonly stopGraceMs?: number;
}

/** What runs: node (process.execPath) with `args`, or a shell command line, `script`. */
export type StartOptions = CommonStartOptions &
  (
    | {
        /** Arguments to node (process.execPath): the script and its flags. */
        readonly args: readonly string[];
        readonly script?: never;
      }
    | {
        /**
         * A shell command line run by `sh -c` (a project's own start script, as npm runs it); its
         * `node` is the bench's. Node flags then go in NODE_OPTIONS.
         */
        readonly script: string;
        readonly args?: never;
      }
  );

/** A server running in its own process, never the process that loads it. */
export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  /** Base URL from its `listening on <url>` line. */
  readonly url: string;
  /** From spawn to the readiness line, in ms. */
  readonly startupMs: number;
  /** The process's peak resident set over its life so far (VmHWM), in KiB. */
  lifetimePeakKib(): number | undefined;
  /** SIGTERM, then SIGKILL after a grace period; resolves when the process is gone. */
  stop(): Promise<void>;
}

const READY = /listening on (\S+)/;

/** Every child still running, so an interrupted or failed bench never leaves a server behind. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `node <args>` (or `sh -c <script>`) with the given environment and waits for the contract's
 * readiness line (`listening on <url>`); the baseline servers print the same line. PORT=0 is the
 * caller's to pass, so every server picks a free port and no two runs collide.
 */
export async function startServer({
  name,
  args = [],
  env = process.env,
  cwd,
  script,
  launcher = [],
  timeoutMs = 60_000,
  stopGraceMs = 5_000,
}: StartOptions): Promise<ServerProcess> {
  const spawnedAt = performance.now();
  const command = script === undefined ? [process.execPath, SOURCE_CONDITION, ...args] : ['sh', '-c', script];
  const [file, ...argv] = [...launcher, ...command];
  const path = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
  const child = spawn(file!, argv, { env: { ...env, PATH: path }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const url = await readinessOf(child, name, timeoutMs);
  const startupMs = performance.now() - spawnedAt;
  try {
    pinServer(child.pid!);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${name}: could not be pinned to its CPU: ${(error as Error).message}`);
  }
  return handle(name, child, url, startupMs, stopGraceMs);
}

/**
 * The URL of a child server's `listening on <url>` line, once it prints it. Rejects, killing the
 * child, when it exits first or prints none within `timeoutMs`, with the tail of its output. Its
 * output keeps being read afterwards (a chatty server never blocks on a full pipe).
 */
function readinessOf(child: ChildProcess, name: string, timeoutMs: number): Promise<string> {
  let output = '';
  const remember = (chunk: Buffer) => {
    // Keep only the tail: enough to explain a failed start, bounded however chatty the server is.
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stderr!.on('data', remember);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not print "listening on <url>" within ${timeoutMs} ms`), timeoutMs);
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name}: ${reason}\n${output}`));
    };
    const onError = (error: Error) => fail(error.message);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`exited (${signal ?? code}) before it was ready`);
    child.once('error', onError);
    child.once('exit', onExit);
    let stdout = '';
    child.stdout!.on('data', function onData(chunk: Buffer) {
      remember(chunk);
      stdout += chunk.toString('utf8');
      const match = READY.exec(stdout);
      if (match === null) return;
      clearTimeout(timer);
      // The exit listener goes (the server's handle listens for its own); the error listener stays,
      // so a later 'error' event (a signal that cannot be sent) never goes unheard.
      child.off('exit', onExit);
      child.stdout!.off('data', onData);
      child.stdout!.on('data', remember);
      resolve(match[1]!);
    });
  });
}

function handle(name: string, child: ChildProcess, url: string, startupMs: number, stopGraceMs: number): ServerProcess {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    name,
    pid: child.pid!,
    url,
    startupMs,
    lifetimePeakKib: () => procStatusKib(child.pid!, 'VmHWM'),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
      await exited;
      clearTimeout(killer);
    },
  };
}
