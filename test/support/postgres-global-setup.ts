import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.ts';

/**
 * Global setup of the `postgres` test project: one throwaway PostgreSQL server for the whole run
 * (each test makes its own database on it), stopped when the run ends.
 */
export default async function setup(project: TestProject) {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return async () => {
    await server.stop();
  };
}
