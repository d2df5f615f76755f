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
