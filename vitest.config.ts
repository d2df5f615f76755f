import { defineConfig } from 'vitest/config';
import { POSTGRESQL, runsTestsNeeding, skipLine } from './test/support/system-packages.ts';

// The workspace packages resolve to their TypeScript sources here, as the npm scripts make Node do
// with --conditions=source (see each package.json's exports). Not 'import': vitest hands these to the
// test workers' Node as --conditions too, and there 'import' makes a CommonJS require() of a package
// with an import export (pg requiring pg-pool) load the ES module instead (Node 24's require(esm)).
// Vite adds 'import' or 'require' itself, by the kind of each import.
const conditions = ['source', 'node', 'default'];

// End-to-end tests start real servers on loopback ports; two cores, so keep the pool small.
// The end-to-end suite runs twice, as one parameterised suite: on SQLite (project `sqlite`, with every
// other test) and on PostgreSQL (project `postgres`, TEST_ENGINE=postgres, against a throwaway server
// its global setup starts from the machine's PostgreSQL binaries).
const postgresProject = {
  extends: true,
  test: {
    name: 'postgres',
    include: [
      'test/e2e/**/*.test.ts',
      'test/runtime/storage/**/*.test.ts',
      'test/runtime/resources/create-resource.test.ts',
    ],
    env: { TEST_ENGINE: 'postgres' },
    globalSetup: ['test/support/postgres-global-setup.ts'],
  },
};

// Without PostgreSQL's server binaries (and CI unset) the postgres project is left out, saying so once.
const runsPostgres = runsTestsNeeding(POSTGRESQL);
if (!runsPostgres)
  console.warn(skipLine(POSTGRESQL, 'the vitest project "postgres" (the end-to-end and storage suites on PostgreSQL)'));

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      // test/e2e/instances needs what only PostgreSQL (and Redis) give: several instances as one server.
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/instances/**'],
          env: { TEST_ENGINE: 'sqlite' },
        },
      },
      ...(runsPostgres ? [postgresProject] : []),
    ],
  },
});
