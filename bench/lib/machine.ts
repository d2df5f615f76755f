import { readFileSync } from 'node:fs';
import { availableParallelism, release, totalmem } from 'node:os';
import { repoPath } from './paths.ts';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly kernel: string;
  readonly node: string;
  readonly autocannon: string;
  readonly date: string;
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
    autocannon = (JSON.parse(readFileSync(repoPath('node_modules', 'autocannon', 'package.json'), 'utf8')) as { version: string }).version;
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
  };
}

export function machineLines(machine: Machine): string[] {
  return [
    `- Date: ${machine.date}`,
    `- CPU: ${machine.cpu}, ${machine.cores} cores available`,
    `- Memory: ${machine.memoryGiB} GiB; ${machine.kernel}`,
    `- Node ${machine.node}; autocannon ${machine.autocannon} (load generated from the bench process, each server in its own process)`,
  ];
}
