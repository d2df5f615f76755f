import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, release, totalmem } from 'node:os';
import { REPO_ROOT, repoPath } from './paths.ts';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly kernel: string;
  readonly node: string;
  readonly autocannon: string;
  readonly date: string;
  /** The commit measured, `+changes` when the served code differs from it. */
  readonly source: string;
}

/** What the figures were measured on: they only compare within one run on one machine. */
export function describeMachine(): Machine {
  let cpu = 'unknown CPU';
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {
    // Not Linux: keep "unknown".
  }
  let autocannon = 'unknown';
  try {
    autocannon = (
      JSON.parse(readFileSync(repoPath('node_modules', 'autocannon', 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    // Not installed where expected: the load would have failed already.
  }
  return {
    cpu,
    cores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    kernel: `Linux ${release()}`,
    node: process.version,
    autocannon,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    source: sourceVersion(),
  };
}

/** The commit of the measured code; BENCH_SOURCE names it when the tree is not a git checkout. */
function sourceVersion(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const changed = git('status', '--porcelain', '--', 'runtime', 'codegen', 'generated', 'definitions', 'dsl') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${changed ? ' +changes' : ''}`;
  } catch {
    return process.env.BENCH_SOURCE ?? 'unknown (not a git checkout)';
  }
}

/** The 1-minute load average: above 0 before the run means something else is using the cores. */
export function loadAverage(): number {
  return loadavg()[0] ?? Number.NaN;
}

export function machineLines(machine: Machine): string[] {
  return [
    `- Date: ${machine.date}`,
    `- CPU: ${machine.cpu}, ${machine.cores} cores available`,
    `- Memory: ${machine.memoryGiB} GiB; ${machine.kernel}`,
    `- Node ${machine.node}; autocannon ${machine.autocannon} (load generated from the bench process, each server in its own process)`,
  ];
}
