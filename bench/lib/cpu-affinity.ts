import { execFileSync } from 'node:child_process';

/** Where the bench runs its processes: the servers on `servers`, the load generator on `load` (taskset CPU lists). */
export interface CpuSplit {
  readonly servers: string;
  readonly load: string;
}

/**
 * "0-2,5" → [0, 1, 2, 5]: a CPU list as taskset prints and takes it.
 */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const [from, to = from] = part.split('-').map((value) => Number(value.trim()));
    if (!Number.isInteger(from) || !Number.isInteger(to)) continue;
    for (let cpu = from!; cpu <= to!; cpu += 1) cpus.push(cpu);
  }
  return cpus;
}

/**
 * Splits the CPUs this process may use: the last one for the servers, the others for the load
 * generator, so that load never competes with a server for a core. Undefined with fewer than two
 * CPUs or without taskset (not Linux): the operating system then places everything.
 */
export function cpuSplitOf(allowed: readonly number[]): CpuSplit | undefined {
  if (allowed.length < 2) return undefined;
  return { servers: String(allowed.at(-1)), load: allowed.slice(0, -1).join(',') };
}

let split: CpuSplit | undefined;
/** Every CPU this process could use before pinBench() pinned it (a taskset CPU list). */
let everyCpu: string | undefined;

/**
 * Pins this process (the load generator) to its share of the CPUs and remembers the servers' share
 * for pinServer(). Returns the split, or undefined when the CPUs cannot be pinned here.
 */
export function pinBench(): CpuSplit | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const shown = execFileSync('taskset', ['-cp', String(process.pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const allowed = parseCpuList(shown.slice(shown.lastIndexOf(':') + 1));
    split = cpuSplitOf(allowed);
    if (split !== undefined) {
      everyCpu = allowed.join(',');
      pin(process.pid, split.load);
    }
  } catch {
    split = undefined;
  }
  return split;
}

/** Pins a server process, every thread of it, to the servers' CPU, when pinBench() pinned the bench. */
export function pinServer(pid: number): void {
  if (split !== undefined) pin(pid, split.servers);
}

/**
 * The command and arguments that run `command` on every CPU the machine gave the bench, as a user runs
 * the CLI: a child inherits the bench's pin to the load generator's share, which would confine the
 * generator and its type check (a second process) to one core. Unchanged when nothing was pinned.
 */
export function onEveryCpu(command: string, args: readonly string[]): [string, string[]] {
  return everyCpu === undefined ? [command, [...args]] : ['taskset', ['-c', everyCpu, command, ...args]];
}

function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
}
