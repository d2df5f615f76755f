import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPOSITORY, SOURCE_CONDITION } from './spawn-server.ts';

/**
 * A temporary copy of the example project, as a user's checkout would be: definitions and generated
 * code copied, node_modules linked (the toolkit's packages resolve through it to this repository).
 */
export function copyProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'project-'));
  for (const folder of ['definitions', 'generated', 'migrations'])
    cpSync(join(REPOSITORY, folder), join(root, folder), { recursive: true });
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'published-versions.json'])
    cpSync(join(REPOSITORY, file), join(root, file));
  symlinkSync(join(REPOSITORY, 'node_modules'), join(root, 'node_modules'), 'dir');
  return root;
}

/**
 * A copy of the example project without its migrations/: for tests about published shapes alone. A
 * project without migrations/ is not checked for missing migrations (docs/changing-your-data.md), so
 * a changed definition is reported by the published-shape rules only.
 */
export function copyProjectWithoutMigrations(): string {
  const root = copyProject();
  rmSync(join(root, 'migrations'), { recursive: true, force: true });
  return root;
}

/** Rewrites one file of a copied project. */
export function editFile(root: string, path: string, edit: (text: string) => string): void {
  const file = join(root, path);
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
}

/** Rewrites one file as `sed -i` and many editors save: a temporary file beside it, renamed over it. */
export function editFileByRename(root: string, path: string, edit: (text: string) => string): void {
  const file = join(root, path);
  const temporary = `${file}.tmp~`;
  writeFileSync(temporary, edit(readFileSync(file, 'utf8')));
  renameSync(temporary, file);
}

/** The toolkit's CLI as `npm run generate` and `npm run lint:definitions` run it. */
export const CLI = join(REPOSITORY, 'codegen/cli/convapi.ts');

/** Runs `npm run generate` (the script's command) in a copied project; returns its exit code and output. */
export function generateIn(root: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, 'generate', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Runs `npm run convapi -- migrate new NAME` (which also regenerates) in a copied project; returns its exit code and output. */
export function migrateNew(root: string, name: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, 'migrate', 'new', name, ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * A copied project, changed by `prepare`, regenerated, and served as `npm start` serves it, with the
 * headers of a client holding a token. Stop it with `stop()`. Its own SQLite file unless `databaseUrl`
 * names another database.
 */
export async function serveCopiedProject(prepare: (root: string) => void, databaseUrl?: string) {
  const root = copyProject();
  prepare(root);
  return serveProject(root, databaseUrl ?? `sqlite:${join(root, 'app.db')}`);
}

/** A project regenerated and served on a database, as serveCopiedProject() does; again after a change, on the same database. */
export async function serveProject(root: string, databaseUrl: string) {
  const { spawnServer } = await import('./spawn-server.ts');
  const { issueToken } = await import('./token-cli.ts');
  // As a user would after changing a definition: write its migration, which regenerates (when nothing stored changed, generate).
  const migrated = migrateNew(root, 'definitions-changed');
  if (migrated.status !== 0) throw new Error(`migrate new failed:\n${migrated.output}`);
  const generated = migrated.output.startsWith('wrote ') ? migrated : generateIn(root);
  if (generated.status !== 0) throw new Error(`generate failed:\n${generated.output}`);
  const headers = {
    'User-Agent': 'copied-project-test',
    Authorization: `Bearer ${issueToken(databaseUrl, 'copied-project')}`,
    'Content-Type': 'application/json',
  };
  const server = await spawnServer({ DATABASE_URL: databaseUrl }, 'generated/main.ts', root);
  return {
    root,
    server,
    headers,
    generated: generated.output,
    stop: async () => {
      server.child.kill('SIGTERM');
      return server.exited;
    },
  };
}
