import { loadOnce, type Measurement } from './load.ts';
import type { RoundPlan, Target } from './rounds.ts';
import { median } from './stats.ts';
import { formatNumber, formatRatio } from './format.ts';

/** The requests/s of several targets loaded at the same time, round after round. */
export interface SharedRounds {
  readonly labels: readonly string[];
  /** rounds[r][i]: what targets[i] measured in round r. */
  readonly rounds: readonly (readonly Measurement[])[];
}

/** A ratio measured round by round under the same conditions. */
export interface PairedRatio {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** False when a round had a response with another status than expected. */
  readonly valid: boolean;
}

/**
 * Loads every target at once, in each of `plan.rounds` rounds (after the targets' own warm-up). With
 * the servers on one CPU (pinBench), they share it evenly while the load lasts, so each one's
 * requests/s is set by the CPU time it spends per request, and a slower or faster stretch of the
 * machine slows or speeds all of them alike: the ratio of two servers in the same round is what one
 * costs against the other, whatever else the machine did during the run.
 */
export async function measureShared(targets: readonly Target[], plan: RoundPlan, log: (line: string) => void): Promise<SharedRounds> {
  const rounds: Measurement[][] = [];
  for (let round = 0; round < plan.rounds; round += 1) {
    const measured = await Promise.all(
      targets.map((target) => loadOnce(target.server.url, target.request, { connections: plan.connections, durationSeconds: plan.durationSeconds })),
    );
    rounds.push(measured);
    log(`  side by side round ${round + 1}/${plan.rounds}: ${targets.map((target, index) => `${target.label} ${formatNumber(measured[index]!.requestsPerSecond)}`).join(', ')} req/s`);
  }
  return { labels: targets.map((target) => target.label), rounds };
}

/** numerator/denominator in each round, summarised; NaN when either label was not measured. */
export function pairedRatio(shared: SharedRounds, numerator: string, denominator: string): PairedRatio {
  const top = shared.labels.indexOf(numerator);
  const bottom = shared.labels.indexOf(denominator);
  if (top < 0 || bottom < 0 || shared.rounds.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, valid: false };
  const ratios = shared.rounds.map((round) => round[top]!.requestsPerSecond / round[bottom]!.requestsPerSecond);
  const valid = shared.rounds.every((round) => round[top]!.unexpected === 0 && round[bottom]!.unexpected === 0);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), valid };
}

/** `0.93 (0.91–0.95)`: a paired ratio with the range of its rounds. */
export function formatPairedRatio(value: PairedRatio): string {
  return `${formatRatio(value.median)} (${formatRatio(value.min)}–${formatRatio(value.max)})`;
}
