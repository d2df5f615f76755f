import { parseArgs } from 'node:util';
import { UsageError } from '@convapi/runtime/cli';
import type { RoundPlan } from './rounds.ts';

export const SECTIONS = [
  'request-path',
  'memory',
  'container',
  'postgres',
  'list-scaling',
  'list-options',
  'search-beside',
  'write-cost',
  'route-scaling',
  'generator',
  'serialisation',
  'profile',
  'instructions',
  'against',
] as const;
/**
 * What a plain `npm run bench` runs: every section but three, each only on request: the profile and
 * the instruction counts (diagnoses, not targets; the counts take minutes a server) and `against`
 * (it needs --against REF).
 */
const DEFAULT_SECTIONS: readonly Section[] = SECTIONS.filter(
  (section) => section !== 'profile' && section !== 'instructions' && section !== 'against',
);
export type Section = (typeof SECTIONS)[number];

export const ENDPOINTS = ['get-one', 'get-list', 'revalidate', 'post'] as const;
export type EndpointId = (typeof ENDPOINTS)[number];

export interface BenchOptions {
  readonly sections: readonly Section[];
  readonly endpoints: readonly EndpointId[];
  readonly gzip: boolean;
  /** Servers on one CPU and the load generator on the others (taskset), when the machine allows. */
  readonly pin: boolean;
  readonly plan: RoundPlan;
  /** Quiet seconds after the memory and container sections' load before their last RSS reading. */
  readonly afterSeconds: number;
  /** Collection counts for the generator timings. */
  readonly generatorCounts: readonly number[];
  /** Collection counts compared by the route-count scaling (small, large). */
  readonly scalingCounts: readonly [number, number];
  /** Markdown file whose figures block is replaced with this run's tables. */
  readonly report: string | undefined;
  /** A git ref whose generated server is measured beside this tree's (the `against` section). */
  readonly against: string | undefined;
  /** The database the `against` section serves from: PostgreSQL when --only names postgres with --against. */
  readonly againstEngine: 'sqlite' | 'postgres';
}

export const USAGE = `usage: npm run bench -- [flags]
  --quick               1 s warm-up, 3 rounds of 1 s, generator up to 100 collections (about 3 minutes)
  --only LIST           sections and/or endpoints, comma-separated:
                        ${SECTIONS.join(', ')}; ${ENDPOINTS.join(', ')}
                        (an endpoint implies request-path unless postgres is named, which then
                        measures the endpoints named with it; profile runs only when named, on the
                        endpoint named with it, default get-one; instructions too, on the endpoints
                        named with it, default get-one, where valgrind is installed)
  --no-gzip             skip the gzip variants of the request path
  --no-pin              leave CPU placement to the OS (default: servers on the last CPU, load on the others)
  --rounds N            measured rounds per target (default 5)
  --duration S          seconds per round (default 2)
  --warmup S            seconds of warm-up per target (default 2)
  --connections N       concurrent keep-alive connections (default 10)
  --after S             memory and container: seconds of quiet after the load before the last RSS
                        reading (default 30; 5 with --quick)
  --report FILE         replace the figures block of FILE (BENCHMARKS.md) with this run's tables
  --against REF         only: this tree's generated server beside REF's (a commit, branch or tag),
                        two processes of each, side by side, on the endpoints --only names (default all;
                        GET list of 20 also with gzip unless --no-gzip); with --only postgres
                        the four servers run on PostgreSQL (a throwaway server, a database each)
  --help`;

/** The flags of `npm run bench`, as node:util parseArgs options (`--help` is added by the command helper). */
export const OPTION_SPEC = {
  quick: { type: 'boolean', default: false },
  only: { type: 'string' },
  'no-gzip': { type: 'boolean', default: false },
  'no-pin': { type: 'boolean', default: false },
  rounds: { type: 'string' },
  duration: { type: 'string' },
  warmup: { type: 'string' },
  connections: { type: 'string' },
  after: { type: 'string' },
  report: { type: 'string' },
  against: { type: 'string' },
} as const;

type OptionValues = ReturnType<typeof parseArgs<{ options: typeof OPTION_SPEC; strict: true }>>['values'];

/** The flags of `npm run bench`; defaults keep the whole run under about 10 minutes on 2 cores. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  return optionsFrom(parseArgs({ args: [...argv], options: OPTION_SPEC, strict: true }).values);
}

/** BenchOptions from parsed flags; a bad value is a UsageError. */
export function optionsFrom(values: OptionValues): BenchOptions {
  const quick = values.quick;
  const only = (values.only ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  for (const item of only) {
    if (!(SECTIONS as readonly string[]).includes(item) && !(ENDPOINTS as readonly string[]).includes(item)) {
      throw new UsageError(`--only: unknown "${item}"; choose from ${[...SECTIONS, ...ENDPOINTS].join(', ')}`);
    }
  }
  const onlyEndpoints = ENDPOINTS.filter((endpoint) => only.includes(endpoint));
  // An endpoint names what to load: the request path's, or the profile's or the instruction counts' when named.
  const against = values.against;
  if (only.includes('against') && against === undefined) throw new UsageError('--only against needs --against REF');
  // --against is a comparison of its own: it runs alone, on the endpoints named.
  const named =
    against !== undefined
      ? (['against'] as const)
      : SECTIONS.filter(
          (section) =>
            only.includes(section) ||
            (section === 'request-path' &&
              onlyEndpoints.length > 0 &&
              !only.includes('profile') &&
              !only.includes('instructions') &&
              !only.includes('postgres')),
        );
  const onlySections = named.length > 0 ? named : DEFAULT_SECTIONS;
  return {
    sections: onlySections,
    endpoints: onlyEndpoints.length > 0 ? onlyEndpoints : ENDPOINTS,
    gzip: !values['no-gzip'],
    pin: !values['no-pin'],
    plan: {
      warmupSeconds: number(values.warmup, quick ? 1 : 2, 0),
      rounds: number(values.rounds, quick ? 3 : 5, 1),
      durationSeconds: number(values.duration, quick ? 1 : 2, 1),
      connections: number(values.connections, 10, 1),
    },
    afterSeconds: number(values.after, quick ? 5 : 30, 0),
    generatorCounts: quick ? [10, 100] : [10, 100, 1000],
    scalingCounts: [10, 1000],
    report: values.report,
    against,
    againstEngine: against !== undefined && only.includes('postgres') ? 'postgres' : 'sqlite',
  };
}

function number(raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`expected a whole number >= ${min}, got "${raw}"`);
  return value;
}
