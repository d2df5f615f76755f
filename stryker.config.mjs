// Mutation testing of one runtime folder at a time (npm run mutation; see CONTRIBUTING.md):
// MUTATION_FOLDER=auth npm run mutation. Each mutant is run against that folder's unit tests only
// (vitest.mutation.config.ts), one at a time, so a run stays within a shared machine's means.
const folder = process.env.MUTATION_FOLDER ?? 'errors';

// Adapters whose every line talks to a server the unit tests do not start (PostgreSQL, Redis): their
// tests are the postgres project's and the Redis suites' (test/e2e/limits, test/e2e/instances).
const NEEDS_A_SERVER = [
  'runtime/auth/postgres-token-store.ts',
  'runtime/limits/redis-connection.ts',
  'runtime/limits/shared-counters.ts',
  'runtime/storage/postgres/**',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [`runtime/${folder}/**/*.ts`, `!runtime/${folder}/**/index.ts`, ...NEEDS_A_SERVER.map((path) => `!${path}`)],
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${folder}.html` },
  jsonReporter: { fileName: `reports/mutation/${folder}.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  timeoutMS: 10_000,
};
