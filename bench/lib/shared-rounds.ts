import { loadOnce, type Measurement } from './load.ts';
import type { RoundPlan, Target } from './rounds.ts';
import { median } from './stats.ts';
import { formatNumber, formatRatio } from './format.ts';
import { processCpuNs } from './cpu-time.ts';

/** One target's round when loaded beside the others: what the load generator saw and what the server spent. */
export interface SharedMeasurement extends Measurement {
  /** CPU time the server process spent during the round, every thread, in ns; undefined where it cannot be read. */
  readonly serverCpuNs: number | undefined;
}

/** The requests/s of several targets loaded at the same time, round after round. */
export interface SharedRounds {
  readonly labels: readonly string[];
  /** rounds[r][i]: what targets[i] measured in round r. */
  readonly rounds: readonly (readonly SharedMeasurement[])[];
}

/** A ratio measured round by round under the same conditions. */
export interface PairedRatio {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** False when a round had a response with another status than expected. */
  readonly valid: boolean;
  /**
   * 'cpu': the ratio of requests served per CPU-second of each server; 'throughput': of requests/s,
   * where the servers' CPU time could not be read.
   */
  readonly basis: 'cpu' | 'throughput';
}

/**
 * Loads every target at once, a warm-up round and then each of `plan.rounds` rounds, and
 * reads each server's CPU time before and after every round. Loaded together, the servers meet the
 * same machine in the same round: a slower or faster stretch slows or speeds all of them alike.
 * Each server's requests/s, though, also depends on its share of the CPU and of the load generator's
 * attention, which need not be even (two identical servers measured this way differed by up to 17%
 * in requests/s); the CPU time it spent per request does not, which is why pairedRatio() compares
 * that. Every target must be a different server process: a server's CPU time is the whole
 * process's.
 */
export async function measureShared(
  targets: readonly Target[],
  plan: RoundPlan,
  log: (line: string) => void,
): Promise<SharedRounds> {
  const pids = new Set(targets.map((target) => target.server.pid));
  if (pids.size !== targets.length) throw new Error('measureShared: each target must be a server process of its own');
  // One unmeasured round first: a target measured only here (the method check) gets its warm-up, and
  // every server settles into sharing the CPU before anything counts.
  if (plan.warmupSeconds > 0) {
    await Promise.all(
      targets.map((target) =>
        loadOnce(target.server.url, target.request, {
          connections: plan.connections,
          durationSeconds: plan.warmupSeconds,
        }),
      ),
    );
  }
  const rounds: SharedMeasurement[][] = [];
  for (let round = 0; round < plan.rounds; round += 1) {
    const before = targets.map((target) => processCpuNs(target.server.pid));
    const measured = await Promise.all(
      targets.map((target) =>
        loadOnce(target.server.url, target.request, {
          connections: plan.connections,
          durationSeconds: plan.durationSeconds,
        }),
      ),
    );
    const after = targets.map((target) => processCpuNs(target.server.pid));
    const withCpu = measured.map((measurement, index): SharedMeasurement => {
      const [start, end] = [before[index], after[index]];
      return { ...measurement, serverCpuNs: start === undefined || end === undefined ? undefined : end - start };
    });
    rounds.push(withCpu);
    log(
      `  side by side round ${round + 1}/${plan.rounds}: ${targets
        .map(
          (target, index) =>
            `${target.label} ${formatNumber(measured[index]!.requestsPerSecond)} req/s ${formatNumber(cpuPerRequestUs(withCpu[index]!), 1)} µs CPU/req`,
        )
        .join(', ')}`,
    );
  }
  return { labels: targets.map((target) => target.label), rounds };
}

/** CPU time the server spent per response in one round, in µs; NaN when unknown. */
export function cpuPerRequestUs(measurement: SharedMeasurement): number {
  if (measurement.serverCpuNs === undefined || measurement.responses === 0) return Number.NaN;
  return measurement.serverCpuNs / measurement.responses / 1000;
}

/** The median over the rounds of a label's CPU time per request, in µs; NaN when unknown. */
export function medianCpuPerRequestUs(shared: SharedRounds, label: string): number {
  const index = shared.labels.indexOf(label);
  if (index < 0 || shared.rounds.length === 0) return Number.NaN;
  return median(shared.rounds.map((round) => cpuPerRequestUs(round[index]!)));
}

/**
 * numerator/denominator in each round, summarised: how many requests the numerator serves per
 * CPU-second against the denominator (the inverse ratio of their CPU time per request), or the
 * ratio of their requests/s when CPU time could not be read. Either side may be several labels,
 * processes of the same server: that side's CPU time per request (or requests/s) is then their mean,
 * which evens out what one process's memory layout adds or saves. NaN when a label was not measured.
 */
export function pairedRatio(
  shared: SharedRounds,
  numerator: string | readonly string[],
  denominator: string | readonly string[],
): PairedRatio {
  const indexes = (side: string | readonly string[]) =>
    (typeof side === 'string' ? [side] : side).map((label) => shared.labels.indexOf(label));
  const [top, bottom] = [indexes(numerator), indexes(denominator)];
  const both = [...top, ...bottom];
  if (top.length === 0 || bottom.length === 0 || both.some((index) => index < 0) || shared.rounds.length === 0) {
    return { median: Number.NaN, min: Number.NaN, max: Number.NaN, valid: false, basis: 'throughput' };
  }
  const byCpu = shared.rounds.every((round) => both.every((index) => Number.isFinite(cpuPerRequestUs(round[index]!))));
  const mean = (
    round: readonly SharedMeasurement[],
    side: readonly number[],
    of: (measurement: SharedMeasurement) => number,
  ) => side.reduce((sum, index) => sum + of(round[index]!), 0) / side.length;
  const ratios = shared.rounds.map((round) =>
    byCpu
      ? mean(round, bottom, cpuPerRequestUs) / mean(round, top, cpuPerRequestUs)
      : mean(round, top, (measurement) => measurement.requestsPerSecond) /
        mean(round, bottom, (measurement) => measurement.requestsPerSecond),
  );
  const valid = shared.rounds.every((round) => both.every((index) => round[index]!.unexpected === 0));
  return {
    median: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    valid,
    basis: byCpu ? 'cpu' : 'throughput',
  };
}

/** `0.93 (0.91–0.95)`: a paired ratio with the range of its rounds; a `*` marks one taken from requests/s. */
export function formatPairedRatio(value: PairedRatio): string {
  const mark = value.basis === 'throughput' && Number.isFinite(value.median) ? '*' : '';
  return `${formatRatio(value.median)} (${formatRatio(value.min)}–${formatRatio(value.max)})${mark}`;
}
