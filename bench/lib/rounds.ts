import { loadOnce, type Measurement, type RequestSpec } from './load.ts';
import { RssSampler } from './memory.ts';
import { median, spreadAround } from './stats.ts';
import type { ServerProcess } from './server-process.ts';
import { formatNumber } from './format.ts';

/** One server and the request it is loaded with. */
export interface Target {
  readonly label: string;
  readonly server: ServerProcess;
  readonly request: RequestSpec;
}

export interface RoundPlan {
  readonly warmupSeconds: number;
  readonly rounds: number;
  readonly durationSeconds: number;
  readonly connections: number;
}

/** The medians of a target's rounds. */
export interface Summary {
  readonly label: string;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** (slowest − fastest round) / median, in requests/s: how much the machine disturbed this target. */
  readonly spread: number;
  /** Largest resident set sampled while this target was under load, in KiB. */
  readonly peakRssKib: number | undefined;
  /** Responses with an unexpected status, errors and timeouts over all rounds (warm-up excluded). */
  readonly unexpected: number;
  readonly rounds: readonly Measurement[];
}

/**
 * Warms every target up, then runs the rounds interleaved (round 1 of each target, then round 2...),
 * starting each round with a different target, so drift on a noisy machine (thermal, other
 * processes) spreads over all targets instead of landing on whichever ran last. Medians, not means,
 * so one disturbed round does not move the figure.
 */
export async function measureTargets(
  targets: readonly Target[],
  plan: RoundPlan,
  log: (line: string) => void,
): Promise<Summary[]> {
  const settings = { connections: plan.connections };
  for (const target of targets) {
    if (plan.warmupSeconds > 0)
      await loadOnce(target.server.url, target.request, { ...settings, durationSeconds: plan.warmupSeconds });
  }
  const measured = new Map<Target, { rounds: Measurement[]; peakKib: number | undefined }>(
    targets.map((target) => [target, { rounds: [], peakKib: undefined }]),
  );
  for (let round = 0; round < plan.rounds; round += 1) {
    for (let offset = 0; offset < targets.length; offset += 1) {
      const target = targets[(round + offset) % targets.length]!;
      const sampler = new RssSampler(target.server.pid);
      const measurement = await loadOnce(target.server.url, target.request, {
        ...settings,
        durationSeconds: plan.durationSeconds,
      });
      const peak = sampler.stop();
      const entry = measured.get(target)!;
      entry.rounds.push(measurement);
      if (peak !== undefined && (entry.peakKib === undefined || peak > entry.peakKib)) entry.peakKib = peak;
      const warning =
        measurement.unexpected > 0
          ? `  (!) ${measurement.unexpected} unexpected: ${JSON.stringify(measurement.statuses)}`
          : '';
      log(
        `  ${target.label} round ${round + 1}/${plan.rounds}: ${formatNumber(measurement.requestsPerSecond)} req/s${warning}`,
      );
    }
  }
  return targets.map((target) => {
    const { rounds, peakKib } = measured.get(target)!;
    const speeds = rounds.map((round) => round.requestsPerSecond);
    const requestsPerSecond = median(speeds);
    return {
      label: target.label,
      requestsPerSecond,
      spread: spreadAround(speeds, requestsPerSecond),
      p50Ms: median(rounds.map((round) => round.p50Ms)),
      p99Ms: median(rounds.map((round) => round.p99Ms)),
      peakRssKib: peakKib,
      unexpected: rounds.reduce((sum, round) => sum + round.unexpected, 0),
      rounds,
    };
  });
}
