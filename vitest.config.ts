import { defineConfig } from 'vitest/config';

// End-to-end tests start real servers on loopback ports; two cores, so keep the pool small.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
