import { readFileSync } from 'node:fs';

/** A field of /proc/<pid>/status in KiB (VmRSS, VmHWM); undefined when the process is gone or not on Linux. */
export function procStatusKib(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * Samples a process's resident set every `intervalMs` while a load runs and keeps the largest value:
 * VmHWM alone would report the peak over the process's whole life (start-up included), not the peak
 * under this particular load.
 */
export class RssSampler {
  #peakKib: number | undefined;
  readonly #timer: NodeJS.Timeout;
  readonly #pid: number;

  constructor(pid: number, intervalMs = 100) {
    this.#pid = pid;
    this.#sample();
    this.#timer = setInterval(() => this.#sample(), intervalMs);
  }

  #sample(): void {
    const kib = procStatusKib(this.#pid, 'VmRSS');
    if (kib !== undefined && (this.#peakKib === undefined || kib > this.#peakKib)) this.#peakKib = kib;
  }

  /** Stops sampling and returns the peak, in KiB. */
  stop(): number | undefined {
    clearInterval(this.#timer);
    this.#sample();
    return this.#peakKib;
  }
}
