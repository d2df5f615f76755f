import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The DSL as an absolute path, so definition files written to a temporary folder can import it (and
 * the type check of lint can resolve it, which a file: URL would not let it do).
 */
export const DSL_IMPORT = fileURLToPath(new URL('../../dsl/index.ts', import.meta.url));

/**
 * Writes a project root with a definitions/ folder holding the given files (name → source, where
 * `DSL` in the source stands for the DSL import specifier). Each call gets a new folder, so
 * dynamic imports are never served from the module cache of an earlier case.
 */
export function writeDefinitions(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'definitions-'));
  mkdirSync(join(root, 'definitions'));
  for (const [name, source] of Object.entries(files)) writeProjectFile(root, `definitions/${name}`, source);
  return root;
}

/** Writes one file of such a project (a path relative to its root), `DSL` in the source standing for the DSL import specifier. */
export function writeProjectFile(root: string, path: string, source: string): void {
  writeFileSync(join(root, path), source.replaceAll('DSL', DSL_IMPORT));
}
