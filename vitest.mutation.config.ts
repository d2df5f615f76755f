import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

// What mutation testing runs against each mutant of one runtime folder: that folder's own unit tests
// (test/runtime/<folder>), nothing else. The end-to-end suite would cover more, but a mutant run
// costs one test run, and the unit tests are what is meant to pin each folder's behaviour down.
// The folder comes from MUTATION_FOLDER, as for stryker.config.mjs.
const folder = process.env.MUTATION_FOLDER ?? 'errors';

export default mergeConfig(
  { ...base, test: { ...base.test, projects: undefined } },
  defineConfig({ test: { include: [`test/runtime/${folder}/**/*.test.ts`], env: { TEST_ENGINE: 'sqlite' } } }),
);
