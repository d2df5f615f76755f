import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchOptions } from '../lib/options.ts';
import { median, verdict } from '../lib/stats.ts';
import { formatSeconds } from '../lib/format.ts';
import type { Log, SectionResult, TargetCheck } from '../lib/section.ts';
import { syntheticProject } from '../synthetic/project.ts';
import { runGenerator } from '../synthetic/generate-project.ts';
import { rememberGenerated } from '../synthetic/projects.ts';

/** Issue 7 targets, in ms, for the largest project (1,000 collections). */
const GENERATE_TARGET_MS = 5_000;
const CHECK_TARGET_MS = 1_000;
const TARGET_COUNT = 1_000;
const RUNS = 3;

/**
 * Section 3 of issue 7: wall time of `generate` from an empty generated/ (cold: a new process, nothing
 * written yet) and of `generate --check` with nothing changed, for synthetic projects of each size.
 * Each is the median of a few runs, every run a fresh process as a user or CI would start it.
 */
export async function generatorTimes(options: BenchOptions, log: Log): Promise<SectionResult> {
  const rows: string[][] = [];
  const targets: TargetCheck[] = [];
  for (const count of options.generatorCounts) {
    const root = syntheticProject(count);
    const generateRuns: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      rmSync(join(root, 'generated'), { recursive: true, force: true });
      generateRuns.push(await runGenerator(root));
    }
    const checkRuns: number[] = [];
    for (let run = 0; run < RUNS; run += 1) checkRuns.push(await runGenerator(root, true));
    rememberGenerated(count, root);
    const generateMs = median(generateRuns);
    const checkMs = median(checkRuns);
    log(`generator: ${count} collections: generate ${formatSeconds(generateMs)} s, --check ${formatSeconds(checkMs)} s`);
    const gated = count === TARGET_COUNT;
    const generateVerdict = gated ? verdict(generateMs, GENERATE_TARGET_MS, 'at-most') : '';
    const checkVerdict = gated ? verdict(checkMs, CHECK_TARGET_MS, 'at-most') : '';
    rows.push([
      String(count),
      formatSeconds(generateMs),
      gated ? `<= ${formatSeconds(GENERATE_TARGET_MS)}` : '',
      generateVerdict,
      formatSeconds(checkMs),
      gated ? `<= ${formatSeconds(CHECK_TARGET_MS)}` : '',
      checkVerdict,
    ]);
    if (gated) {
      targets.push({ name: `generator: generate, ${count} collections`, target: `<= ${formatSeconds(GENERATE_TARGET_MS)} s`, figure: `${formatSeconds(generateMs)} s`, verdict: verdict(generateMs, GENERATE_TARGET_MS, 'at-most') });
      targets.push({ name: `generator: generate --check, ${count} collections`, target: `<= ${formatSeconds(CHECK_TARGET_MS)} s`, figure: `${formatSeconds(checkMs)} s`, verdict: verdict(checkMs, CHECK_TARGET_MS, 'at-most') });
    }
  }
  return {
    tables: [
      {
        title: 'Generator: wall time, seconds (median of 3 runs, each a fresh process)',
        columns: [
          { title: 'collections', align: 'right' },
          { title: 'generate', align: 'right' },
          { title: 'target' },
          { title: '' },
          { title: '--check (unchanged)', align: 'right' },
          { title: 'target' },
          { title: '' },
        ],
        rows,
        notes: [
          'generate starts from an empty generated/; --check runs on the tree generate just wrote. Both include Node start-up and linting.',
          ...(options.generatorCounts.includes(TARGET_COUNT) ? [] : [`targets apply to ${TARGET_COUNT} collections, not measured in this run (--quick)`]),
        ],
      },
    ],
    targets,
  };
}
