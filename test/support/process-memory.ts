import { readFileSync } from 'node:fs';

/** The resident memory of process `pid`, in MiB (VmRSS of /proc/<pid>/status); undefined once it has exited. */
export function residentMiB(pid: number): number | undefined {
  try {
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/** The processes `pid` started and that still run (Linux's /proc); none once it has exited. */
export function childPids(pid: number): number[] {
  try {
    const listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return listed === '' ? [] : listed.split(' ').map(Number);
  } catch {
    return [];
  }
}

/** The arguments a process was started with, its program first (from /proc). */
export function commandLineOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .filter((argument) => argument !== '');
}

/** The environment process `pid` was started with (Linux's /proc/<pid>/environ). */
export function environmentOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter((entry) => entry !== '');
  return Object.fromEntries(
    entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}
