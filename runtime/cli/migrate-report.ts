import { resolve } from 'node:path';
import { migrationStatus } from '../app/migration-status.ts';
import { DEFAULT_DATABASE_URL, describeDatabaseUrl } from '../storage/database-url.ts';
import { readMigrationSources } from '../storage/migrations/files.ts';

/**
 * `convapi migrate status` and `convapi migrate --dry-run`: where the database DATABASE_URL names
 * stands against the project's migrations/, changing nothing. `status` lists the applied migrations
 * (with when) and the pending ones; `sql` prints the SQL a start would run for the pending ones.
 */
export async function reportMigrations(
  root: string,
  what: 'status' | 'sql',
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const sources = readMigrationSources(resolve(root));
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const status = await migrationStatus(databaseUrl, sources);
  if (what === 'sql') {
    if (status.pending.length === 0) console.log(`-- ${describeDatabaseUrl(databaseUrl)}: no pending migration`);
    for (const migration of status.pending)
      console.log(`-- ${migration.id} (${status.engine}, one transaction)\n${migration.sql}`);
    return 0;
  }
  const known = new Set(sources.map((source) => source.id));
  console.log(`database: ${describeDatabaseUrl(databaseUrl)}`);
  for (const migration of status.applied)
    console.log(
      `applied  ${migration.id}  ${migration.appliedAt}${known.has(migration.id) ? '' : '  (not in migrations/)'}`,
    );
  for (const migration of status.pending) console.log(`pending  ${migration.id}`);
  if (sources.length === 0)
    console.log('no migration in migrations/: write the first with `npm run convapi -- migrate new initial`');
  return 0;
}
