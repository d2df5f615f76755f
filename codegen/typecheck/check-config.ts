import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The generated file that merges each collection's types into the DSL's (CollectionRows,
 * CollectionIdentifiers), relative to the project root: the definitions are checked with it, as
 * `tsc` checks them, though they do not import it.
 */
export const GENERATED_TYPES_FILE = 'generated/collection-rows.ts';

/** The settings definitions are checked with when the project has no tsconfig.json: the toolkit's own. */
const DEFAULT_OPTIONS = {
  target: 'es2024',
  // ES modules whatever the nearest package.json says (a project without one is still ESM to Node).
  module: 'esnext',
  moduleResolution: 'bundler',
  strict: true,
  verbatimModuleSyntax: true,
  allowImportingTsExtensions: true,
  // The language only: no DOM, no @types (a definition is data; the project's tsconfig can add more).
  lib: ['es2024'],
  types: [],
};

/**
 * Whatever the project says: nothing is emitted, libraries' declaration files are not checked, and
 * the check is incremental (see typeCheckCache()).
 */
const CHECK_ONLY = { noEmit: true, skipLibCheck: true, incremental: true, composite: false, declaration: false };

/**
 * Where the check keeps its files: the project's node_modules/.cache/convapi-lint/ (so `types`
 * resolve from the project's node_modules/@types as they would from its root), or a folder under the
 * system's temporary folder when the project has no node_modules.
 */
function cacheFolder(root: string): string {
  const modules = join(root, 'node_modules');
  return existsSync(modules) ? join(modules, '.cache', 'convapi-lint') : join(tmpdir(), 'convapi-lint');
}

/**
 * The check's incremental state (tsgo's .tsbuildinfo) for a project: what the last check found per
 * file, so the next one checks only the files that changed and what depends on them (a watcher's
 * one-file change, a second lint). Keyed by the project's path: several projects may share one
 * node_modules (a symlink). Deleting it only makes the next check a full one.
 */
export function typeCheckCache(root: string): string {
  return join(cacheFolder(root), `${createHash('sha256').update(root).digest('hex').slice(0, 16)}.tsbuildinfo`);
}

/**
 * Where a check may be handed a file of types that is not (yet) the project's own: the types the
 * definitions generate, when generated/ holds older ones. In the check's folder, so that the module
 * it augments (`@convapi/dsl`) resolves from the project's node_modules as it does from generated/.
 * One per process and project, as the configuration is.
 */
export function checkContextFile(root: string, name: string): string {
  const folder = cacheFolder(root);
  mkdirSync(folder, { recursive: true });
  return join(folder, `${createHash('sha256').update(root).digest('hex').slice(0, 16)}.${process.pid}.${name}`);
}

/** Forgets the incremental state of a project's check (the next check is a full one, as on a fresh clone). */
export function clearTypeCheckCache(root: string): void {
  rmSync(typeCheckCache(root), { force: true });
}

/**
 * The export conditions Node was started with (`--conditions=source`, `-C source`): types resolve
 * the way this process resolves the modules, so a workspace that runs its packages from sources
 * type-checks them from sources too.
 */
export function nodeConditions(execArgv: readonly string[] = process.execArgv): string[] {
  const conditions: string[] = [];
  execArgv.forEach((argument, index, all) => {
    const inline = /^(?:--conditions|-C)=(.+)$/.exec(argument);
    if (inline !== null) conditions.push(inline[1]!);
    else if ((argument === '--conditions' || argument === '-C') && all[index + 1] !== undefined)
      conditions.push(all[index + 1]!);
  });
  return conditions;
}

/**
 * Writes the tsconfig the check runs with, in cacheFolder(): it extends the project's tsconfig.json
 * when there is one (its strictness, types and paths apply) and lists exactly the definition files,
 * and the `context` files their types depend on without importing them (generated/collection-rows.ts,
 * which augments the DSL's types: without it `data.of('loans')` is untyped, and a rule that `tsc`
 * refuses would pass). Returns its path.
 */
export function writeCheckConfig(root: string, files: readonly string[], context: readonly string[] = []): string {
  const folder = cacheFolder(root);
  mkdirSync(folder, { recursive: true });
  const projectConfig = join(root, 'tsconfig.json');
  const conditions = nodeConditions();
  const config = {
    ...(existsSync(projectConfig) ? { extends: projectConfig } : {}),
    compilerOptions: {
      ...(existsSync(projectConfig) ? {} : DEFAULT_OPTIONS),
      ...CHECK_ONLY,
      tsBuildInfoFile: typeCheckCache(root),
      ...(conditions.length > 0 ? { customConditions: conditions } : {}),
    },
    files: [...files, ...context],
    include: [],
  };
  // One file per process: two lints of one project at once must not read each other's list.
  const path = join(folder, `tsconfig.${process.pid}.json`);
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}
