import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from './server-process.ts';

/** Whether valgrind (with callgrind and its control script) can be run here. */
export function callgrindAvailable(): boolean {
  return (
    spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0 &&
    spawnSync('callgrind_control', ['--version'], { stdio: 'ignore' }).status === 0
  );
}

/** A server running under callgrind: its URL, and the instructions it executes between zero() and count(). */
export interface CallgrindServer {
  readonly url: string;
  /** Sets the counters of every thread to zero. */
  zero(): void;
  /** Instructions executed by every thread of the process since zero(), read from a dump callgrind writes now. */
  count(): number;
  stop(): Promise<void>;
}

/**
 * Starts `node ARGS` under callgrind (valgrind's instruction counter), as the bench starts any
 * server (startServer(), valgrind as its launcher), and resolves once it prints its
 * `listening on <url>` line. Callgrind counts the instructions the CPU executes, user space only
 * (system calls are not counted), whatever else the machine runs: what CPU time on a machine shared
 * with other work cannot give. The process runs some fifty times slower meanwhile.
 * `--smc-check=all-non-file` makes valgrind see the code V8 compiles at run time.
 */
export async function startUnderCallgrind(
  name: string,
  nodeArgs: readonly string[],
  { env, cwd, dataDir }: { readonly env: NodeJS.ProcessEnv; readonly cwd: string; readonly dataDir: string },
): Promise<CallgrindServer> {
  const outFile = join(dataDir, `${name}.callgrind`);
  const server = await startServer({
    name,
    launcher: [
      'valgrind',
      '--tool=callgrind',
      '--vgdb=yes',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${outFile}`,
    ],
    // V8's compilers and collector on the main thread: valgrind runs one thread at a time, so
    // background compilation would land at a different moment on every run, and with it the count.
    args: ['--single-threaded', ...nodeArgs],
    env,
    cwd,
    timeoutMs: 300_000,
    // Slowed down as it is, the server may take longer than usual to end; killed, valgrind would
    // leave its control pipes behind.
    stopGraceMs: 30_000,
  });
  // valgrind and its control script name their meeting point after USER and HOST: the control
  // script must be run with the environment the server was started with.
  const control = (command: string) => {
    const result = spawnSync('callgrind_control', [command, String(server.pid)], { env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${name}: callgrind_control ${command} failed: ${result.stderr}`);
  };
  let dumps = 0;
  return {
    url: server.url,
    zero: () => control('-z'),
    count: () => {
      control('-d');
      dumps += 1;
      return instructionsOfDump(readFileSync(`${outFile}.${dumps}`, 'utf8'));
    },
    stop: () => server.stop(),
  };
}

/** The instructions a callgrind dump counted: its `summary:` line (the sum over every thread). */
export function instructionsOfDump(dump: string): number {
  const match = /^summary:\s+(\d+)/m.exec(dump) ?? /^totals:\s+(\d+)/m.exec(dump);
  if (match === null) throw new Error('a callgrind dump without a summary line');
  return Number(match[1]);
}

/** The node arguments of a start script that ends by running node (`… node FLAGS ENTRY`). */
export function nodeArgumentsOf(startScript: string): string[] {
  const words = startScript.trim().split(/\s+/);
  const at = words.lastIndexOf('node');
  if (at < 0 || at === words.length - 1) throw new Error(`the start script does not run node: ${startScript}`);
  return words.slice(at + 1);
}
