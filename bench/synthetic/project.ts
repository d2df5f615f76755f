import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScript } from '../lib/generated-server.ts';
import { REPO_ROOT, repoPath } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { syntheticCollectionName } from './names.ts';

/**
 * A throw-away project with `count` collection definitions (one file each, as a user would write
 * them) and a symlink to this repository's node_modules/, so the definitions' `@convapi/dsl` and the
 * generated code's `@convapi/runtime` imports resolve to the workspace packages.
 * Each collection has one version and two fields, so the project grows in routes, not in per-route work.
 */
export function syntheticProject(count: number): string {
  const root = tempDir(`project-${count}`);
  symlinkSync(repoPath('node_modules'), join(root, 'node_modules'), 'dir');
  // Type stripping needs to know the .ts files are ES modules, as in the repository; the server is
  // started as the repository's example is (the bench runs a project's own start script).
  const manifest = {
    name: `bench-synthetic-${count}`,
    private: true,
    type: 'module',
    scripts: { start: startScript(REPO_ROOT) },
  };
  writeFileSync(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(join(root, 'definitions'));
  for (let index = 1; index <= count; index += 1) {
    const name = syntheticCollectionName(index);
    writeFileSync(join(root, 'definitions', `${name}.ts`), definitionSource(name));
  }
  return root;
}

function definitionSource(name: string): string {
  return `import { collection, field } from '@convapi/dsl';

/** Synthetic collection for the route-count benchmark. */
export default collection({
  name: '${name}',
  identifier: { name: 'widget_id', type: 'integer' },
  fields: {
    label: field.string({ required: true, minLength: 1 }),
    size: field.integer({ min: 0 }),
  },
  versions: { v1: {} },
});
`;
}
