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
  for (const [name, source] of Object.entries(files))
    writeFileSync(join(root, 'definitions', name), source.replaceAll('DSL', DSL_IMPORT));
  return root;
}
