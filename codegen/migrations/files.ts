import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrationIds, MIGRATION_FILE_NAME, MIGRATIONS_FOLDER, parseMigration, readMigrationSources, type Migration } from '@convapi/runtime/migrations';

export { keepsMigrations, migrationIds, MIGRATIONS_FOLDER } from '@convapi/runtime/migrations';

export interface MigrationFile {
  /** The file name without `.json`: what the database records. */
  readonly id: string;
  readonly number: number;
  /** `migrations/0002_add-phone.json`. */
  readonly path: string;
  readonly migration: Migration;
}

/** A problem with the migration files themselves, placed in the file. */
export interface MigrationFileProblem {
  readonly path: string;
  readonly at: readonly string[];
  readonly message: string;
}

/** Every migration file, in order, parsed (a file that is not a migration throws MigrationFileError). */
export function readMigrations(root: string, ids = migrationIds(root)): MigrationFile[] {
  return readMigrationSources(root, ids).map((source) => ({ id: source.id, number: Number(source.id.slice(0, 4)), path: `${MIGRATIONS_FOLDER}/${source.id}.json`, migration: parseMigration(source) }));
}

/**
 * The files that parse, and a problem for each that does not, and for the order (see
 * migrationChainProblems). `complete` is false when a file could not be read: what the last one
 * left is then unknown.
 */
export function checkedMigrations(root: string): { files: MigrationFile[]; problems: MigrationFileProblem[]; complete: boolean } {
  const files: MigrationFile[] = [];
  const problems: MigrationFileProblem[] = [];
  for (const id of migrationIds(root)) {
    try {
      files.push(...readMigrations(root, [id]));
    } catch (error) {
      problems.push({ path: `${MIGRATIONS_FOLDER}/${id}.json`, at: [], message: (error as Error).message });
    }
  }
  return { files, problems: [...problems, ...(problems.length === 0 ? migrationChainProblems(root, files) : [])], complete: problems.length === 0 };
}

const REDO = 'delete the one your branch added, then run `npm run convapi -- migrate new <name>` again (docs/changing-your-data.md, "After a rebase")';

/**
 * The files form one line: numbered 1, 2, 3..., each written after the one before it (`follows`).
 * Two branches that each wrote a migration break it, once both are merged: reported with what to do.
 */
export function migrationChainProblems(root: string, files: readonly MigrationFile[]): MigrationFileProblem[] {
  const problems: MigrationFileProblem[] = [];
  for (const name of existsSync(join(root, MIGRATIONS_FOLDER)) ? readdirSync(join(root, MIGRATIONS_FOLDER)) : []) {
    if (name.endsWith('.json') && !MIGRATION_FILE_NAME.test(name)) problems.push({ path: `${MIGRATIONS_FOLDER}/${name}`, at: [], message: `${name} is not named as a migration (0002_add-phone.json): rename it, or move it out of migrations/` });
  }
  files.forEach((file, index) => {
    const previous = files[index - 1];
    if (file.number !== index + 1) {
      const other = files.find((candidate) => candidate !== file && candidate.number === file.number);
      problems.push({ path: file.path, at: [], message: other !== undefined ? `${file.path} has the number of ${other.path}: two branches each wrote a migration; ${REDO}` : `${file.path} should be numbered ${String(index + 1).padStart(4, '0')}: migrations are numbered 0001, 0002, ... without gaps` });
    } else if (file.migration.follows !== (previous?.id ?? null)) {
      problems.push({ path: file.path, at: ['follows'], message: `${file.path} was written after ${file.migration.follows ?? 'no migration'}, but follows ${previous?.id ?? 'no migration'} here: another migration came in before it; ${REDO}` });
    }
  });
  return problems;
}
