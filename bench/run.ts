import { command } from '@convapi/runtime/cli';
import { OPTION_SPEC, optionsFrom, USAGE, type BenchOptions, type Section } from './lib/options.ts';
import { describeMachine, loadAverage, machineLines } from './lib/machine.ts';
import { renderTable, type Table } from './lib/table.ts';
import { writeFiguresBlock } from './lib/report.ts';
import type { Log, SectionResult, TargetCheck } from './lib/section.ts';
import { requestPath } from './sections/request-path.ts';
import { memory } from './sections/memory.ts';
import { container } from './sections/container.ts';
import { postgresPath } from './sections/postgres-path.ts';
import { routeScaling } from './sections/route-scaling.ts';
import { generatorTimes } from './sections/generator.ts';
import { serialisation } from './sections/serialisation.ts';
import { profile } from './sections/profile.ts';
import { instructions } from './sections/instructions.ts';
import { againstRef } from './sections/against-ref.ts';
import { listScaling } from './sections/list-scaling.ts';
import { listOptions } from './sections/list-options.ts';
import { searchBeside } from './sections/search-beside.ts';
import { writeCost } from './sections/write-cost.ts';
import { pinBench, type CpuSplit } from './lib/cpu-affinity.ts';

/**
 * `npm run bench`: the price of the conventions, measured against baselines in the same run and
 * printed as ratios. Progress goes to stderr, the tables to stdout.
 */
const SECTION_RUNNERS: Record<Section, (options: BenchOptions, log: Log) => Promise<SectionResult>> = {
  'request-path': requestPath,
  memory,
  container,
  postgres: postgresPath,
  'list-scaling': listScaling,
  'list-options': listOptions,
  'search-beside': searchBeside,
  'write-cost': writeCost,
  // Before route-scaling, which then reuses the projects it generated.
  generator: generatorTimes,
  'route-scaling': routeScaling,
  serialisation,
  profile,
  instructions,
  against: againstRef,
};
const ORDER: readonly Section[] = [
  'request-path',
  'memory',
  'container',
  'postgres',
  'list-scaling',
  'list-options',
  'search-beside',
  'write-cost',
  'generator',
  'route-scaling',
  'serialisation',
  'profile',
  'instructions',
  'against',
];

async function main(options: BenchOptions, args: readonly string[]): Promise<number> {
  const machine = describeMachine();
  const log: Log = (line) => console.error(line);
  const loadBefore = loadAverage();
  // The bench itself keeps about 2 cores busy; more than that at the end means something else ran too.
  if (loadBefore > 0.5)
    log(
      `note: load average ${loadBefore.toFixed(2)} before the run: other work on this machine will disturb the figures`,
    );
  // Before any server starts: each one is pinned to the servers' CPU as it comes up.
  const split = options.pin ? pinBench() : undefined;
  const placement = placementLine(split, options.pin);
  // The commit goes to the console, not into the report: the documents say what the figures are, not
  // which commit they came from.
  log(`code measured: ${machine.source}`);
  log(placement);
  const started = performance.now();
  const tables: Table[] = [];
  const targets: TargetCheck[] = [];
  for (const section of ORDER.filter((name) => options.sections.includes(name))) {
    const result = await SECTION_RUNNERS[section](options, log);
    tables.push(...result.tables);
    targets.push(...result.targets);
    // Print each section as soon as it is done, so a long run shows figures early.
    for (const table of result.tables) console.log(`${renderTable(table)}\n`);
  }
  const summary: Table = {
    title: 'Targets',
    columns: [{ title: 'target' }, { title: 'wanted' }, { title: 'measured', align: 'right' }, { title: '' }],
    rows: targets.map((target) => [target.name, target.target, target.figure, target.verdict]),
  };
  if (targets.length > 0) console.log(`${renderTable(summary)}\n`);
  const seconds = Math.round((performance.now() - started) / 1000);
  const loadAfter = loadAverage();
  log(
    `bench finished in ${seconds} s (1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after)`,
  );
  if (options.report !== undefined) {
    const flags = args.filter(
      (arg, index, all) => arg !== '--report' && all[index - 1] !== '--report' && !arg.startsWith('--report='),
    );
    const command = `npm run bench${flags.length > 0 ? ` -- ${flags.join(' ')}` : ''}`;
    const figures = [
      '## Latest figures',
      '',
      ...machineLines(machine),
      `- ${placement}`,
      `- Command: \`${command}\` (${seconds} s); 1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (the bench alone keeps about 2 cores busy)`,
      '',
      ...(targets.length > 0 ? [renderTable(summary), ''] : []),
      ...tables.map((table) => `${renderTable(table)}\n`),
    ].join('\n');
    writeFiguresBlock(options.report, figures);
    log(`figures written to ${options.report}`);
  }
  return 0;
}

function placementLine(split: CpuSplit | undefined, wanted: boolean): string {
  if (split !== undefined)
    return `CPU placement: servers on CPU ${split.servers}, the load generator on CPU ${split.load} (taskset)`;
  return wanted
    ? 'CPU placement: left to the OS (taskset or a second CPU is missing)'
    : 'CPU placement: left to the OS (--no-pin)';
}

// Ctrl-C: exit through the 'exit' handlers, which kill the servers and remove the temporary folders.
if (import.meta.main) {
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
}

/** `npm run bench`, for the convapi dispatcher and this entry file alike. */
export async function run(args: readonly string[]): Promise<number> {
  return command({
    name: 'bench',
    usage: USAGE,
    options: OPTION_SPEC,
    main: ({ values }) => main(optionsFrom(values), args),
  })(args);
}

if (import.meta.main) process.exitCode = await run(process.argv.slice(2));
