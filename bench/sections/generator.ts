import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchOptions } from '../lib/options.ts';
import { median, verdict } from '../lib/stats.ts';
import { formatSeconds } from '../lib/format.ts';
import type { Log, SectionResult, TargetCheck } from '../lib/section.ts';
import { syntheticProject } from '../synthetic/project.ts';
import { runGenerator, runLint } from '../synthetic/generate-project.ts';
import { watchRegenerationTimes } from '../synthetic/watch-regeneration.ts';
import { clearTypeCheckCache } from '../../codegen/typecheck/index.ts';
import { rememberGenerated } from '../synthetic/projects.ts';

/** The generator's targets, in ms, for the largest project (1,000 collections). */
const GENERATE_TARGET_MS = 5_000;
const CHECK_TARGET_MS = 1_000;
/** The linter's targets: lint, type check included, of the largest project; one-file regeneration by generate --watch on the example. */
const LINT_TARGET_MS = 3_000;
const WATCH_TARGET_MS = 1_000;
const WATCH_CHANGES = 5;
const TARGET_COUNT = 1_000;
const RUNS = 3;

/**
 * Wall time of `generate` from an empty generated/ (cold: a new process, nothing
 * written yet) and of `generate --check` with nothing changed, for synthetic projects of each size;
 * and of `lint` (type check included) on each, and of `generate --watch` regenerating the
 * example after a one-file change. Each is the median of a few runs, every run (but the watcher's) a
 * fresh process as a user or CI would start it.
 */
export async function generatorTimes(options: BenchOptions, log: Log): Promise<SectionResult> {
  const rows: string[][] = [];
  const targets: TargetCheck[] = [];
  for (const count of options.generatorCounts) {
    const root = syntheticProject(count);
    const generateRuns: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      rmSync(join(root, 'generated'), { recursive: true, force: true });
      // Cold, as on a fresh clone: no incremental state of the type check either.
      clearTypeCheckCache(root);
      generateRuns.push(await runGenerator(root));
    }
    const checkRuns: number[] = [];
    for (let run = 0; run < RUNS; run += 1) checkRuns.push(await runGenerator(root, true));
    const lintRuns: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      clearTypeCheckCache(root);
      lintRuns.push(await runLint(root));
    }
    rememberGenerated(count, root);
    const generateMs = median(generateRuns);
    const checkMs = median(checkRuns);
    const lintMs = median(lintRuns);
    log(
      `generator: ${count} collections: generate ${formatSeconds(generateMs)} s, --check ${formatSeconds(checkMs)} s, lint ${formatSeconds(lintMs)} s`,
    );
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
      formatSeconds(lintMs),
      gated ? `<= ${formatSeconds(LINT_TARGET_MS)}` : '',
      gated ? verdict(lintMs, LINT_TARGET_MS, 'at-most') : '',
    ]);
    if (gated) {
      targets.push({
        name: `generator: generate, ${count} collections`,
        target: `<= ${formatSeconds(GENERATE_TARGET_MS)} s`,
        figure: `${formatSeconds(generateMs)} s`,
        verdict: verdict(generateMs, GENERATE_TARGET_MS, 'at-most'),
      });
      targets.push({
        name: `generator: generate --check, ${count} collections`,
        target: `<= ${formatSeconds(CHECK_TARGET_MS)} s`,
        figure: `${formatSeconds(checkMs)} s`,
        verdict: verdict(checkMs, CHECK_TARGET_MS, 'at-most'),
      });
      targets.push({
        name: `lint (type check included), ${count} collections`,
        target: `<= ${formatSeconds(LINT_TARGET_MS)} s`,
        figure: `${formatSeconds(lintMs)} s`,
        verdict: verdict(lintMs, LINT_TARGET_MS, 'at-most'),
      });
    }
  }
  const watchRuns = await watchRegenerationTimes(WATCH_CHANGES);
  const watchMs = median(watchRuns);
  log(
    `generator: generate --watch, one-file change on the example: ${watchRuns.map((ms) => formatSeconds(ms)).join(', ')} s`,
  );
  targets.push({
    name: 'generate --watch: one-file change on the example',
    target: `< ${formatSeconds(WATCH_TARGET_MS)} s`,
    figure: `${formatSeconds(watchMs)} s`,
    verdict: verdict(watchMs, WATCH_TARGET_MS, 'at-most'),
  });
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
          { title: 'lint', align: 'right' },
          { title: 'target' },
          { title: '' },
        ],
        rows,
        notes: [
          'generate starts from an empty generated/; --check runs on the tree generate just wrote. Both include Node start-up and linting.',
          'lint is `convapi lint --root DIR` as `npm run lint:definitions` runs it: type check of definitions/ (tsgo) included. generate and lint run cold: the incremental state of the type check is deleted before each run.',
          ...(options.generatorCounts.includes(TARGET_COUNT)
            ? []
            : [`targets apply to ${TARGET_COUNT} collections, not measured in this run (--quick)`]),
        ],
      },
      {
        title: `generate --watch on the example: wall time of a one-file change, seconds (median of ${WATCH_CHANGES})`,
        columns: [
          { title: 'median', align: 'right' },
          { title: 'runs', align: 'right' },
          { title: 'target' },
          { title: '' },
        ],
        rows: [
          [
            formatSeconds(watchMs),
            watchRuns.map((ms) => formatSeconds(ms)).join(', '),
            `< ${formatSeconds(WATCH_TARGET_MS)}`,
            verdict(watchMs, WATCH_TARGET_MS, 'at-most'),
          ],
        ],
        notes: [
          'From writing definitions/orders.ts (a description added, then removed) to the watcher printing "regenerated": file event, lint with type check, generation and the files written.',
        ],
      },
    ],
    targets,
  };
}
