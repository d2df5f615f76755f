import { defineConfig } from 'vitest/config';

// The workspace packages resolve to their TypeScript sources here, as the npm scripts make Node do
// with --conditions=source (see each package.json's exports).
const conditions = ['source', 'node', 'import', 'default'];

// End-to-end tests start real servers on loopback ports; two cores, so keep the pool small.
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
