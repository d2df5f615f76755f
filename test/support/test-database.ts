import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createDatabase } from './postgres-server.ts';

/**
 * The engine the suite runs on: the vitest project `postgres` runs the end-to-end suite again with
 * TEST_ENGINE=postgres against the server its global setup started (test/support/postgres-global-setup.ts).
 */
export type TestEngine = 'sqlite' | 'postgres';

export const testEngine = (): TestEngine => (process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite');

/** A new, empty database on the suite's engine: a SQLite file in a temporary folder, or a new PostgreSQL database. */
export async function newTestDatabase(): Promise<string> {
  if (testEngine() === 'postgres') return createDatabase(postgresServerUrl());
  return `sqlite:${join(mkdtempSync(join(tmpdir(), 'api-test-')), 'app.db')}`;
}

/** The URL of the test PostgreSQL server the global setup started (its `postgres` database). */
export function postgresServerUrl(): string {
  const url = inject('postgresUrl');
  if (url === undefined || url === '')
    throw new Error(
      'no test PostgreSQL server: this test runs in the vitest project "postgres" (see vitest.config.ts)',
    );
  return url;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}
