import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrationSource } from './migration.ts';

/** Where a project keeps its migrations; a project without this folder keeps none. */
export const MIGRATIONS_FOLDER = 'migrations';

/** `0002_add-phone.json`: a four-digit number, then a name of lowercase words joined with hyphens. */
export const MIGRATION_FILE_NAME = /^(\d{4})_([a-z0-9]+(?:-[a-z0-9]+)*)\.json$/;

/** The project keeps migrations: it has a migrations/ folder. */
export const keepsMigrations = (root: string) => existsSync(join(root, MIGRATIONS_FOLDER));

/** The ids of a project's migration files (file names without `.json`), in order, without reading them. */
export function migrationIds(root: string): string[] {
  if (!keepsMigrations(root)) return [];
  return readdirSync(join(root, MIGRATIONS_FOLDER))
    .filter((name) => MIGRATION_FILE_NAME.test(name))
    .sort()
    .map((name) => name.slice(0, -'.json'.length));
}

/** Each migration file's id and JSON (a file that is not JSON gives a string saying so, which parseMigration refuses). */
export function readMigrationSources(root: string, ids = migrationIds(root)): MigrationSource[] {
  return ids.map((id) => {
    try {
      return { id, plan: JSON.parse(readFileSync(join(root, MIGRATIONS_FOLDER, `${id}.json`), 'utf8')) as unknown };
    } catch (error) {
      return { id, plan: `not JSON: ${(error as Error).message}` };
    }
  });
}
