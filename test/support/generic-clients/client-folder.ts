import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPOSITORY } from '../spawn-server.ts';

/** The documents the example API publishes, one per version. */
export const DOCUMENTS = ['v1', 'v2'] as const;

export const documentPath = (version: string) => join(REPOSITORY, 'generated', 'openapi', `${version}.json`);

export const documentOf = (version: string): Record<string, any> =>
  JSON.parse(readFileSync(documentPath(version), 'utf8'));

/**
 * A new folder outside the repository, as a user's client project: an ES module package whose
 * node_modules is this repository's (where openapi-fetch and the generators are installed).
 */
export function clientFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'generic-client', private: true, type: 'module' }),
  );
  symlinkSync(join(REPOSITORY, 'node_modules'), join(folder, 'node_modules'), 'dir');
  return folder;
}
