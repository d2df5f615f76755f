import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { command, InputError } from '@convapi/runtime/cli';
import { planManifest, type Manifest } from '../init/package-manifest.ts';
import { PROJECT_FILES } from '../init/project-files.ts';

const USAGE = `usage: convapi init [--dir DIR] [--name NAME] [--force]

Sets up a project in DIR (default: the current folder), empty or an existing npm project:
package.json (created, or the toolkit's scripts and dependencies added to it), tsconfig.json,
definitions/notes.ts (an example collection) and .gitignore. Then: npm install, npm run generate,
npm start.

  --dir DIR     the project folder (created when missing)
  --name NAME   the package name of a new package.json (default: the folder's name)
  --force       overwrite files and scripts that exist (without it: exit 2, nothing written)
  --help        this text`;

/**
 * `convapi init`: exit 0 when written, 2 on a usage error or when it would overwrite something
 * (InputError: one line, nothing written).
 */
export const run = command({
  name: 'init',
  usage: USAGE,
  options: {
    dir: { type: 'string', default: '.' },
    name: { type: 'string' },
    force: { type: 'boolean', default: false },
  },
  main: ({ values }) => {
    const { written, notes } = initProject(resolve(values.dir), { name: values.name, force: values.force });
    for (const path of written) console.log(`wrote ${path}`);
    for (const note of notes) console.log(`note: ${note}`);
    console.log('next: npm install && npm run generate && npm start');
    return 0;
  },
});

/** Writes the project files into `root`; returns the paths written. Writes nothing when it refuses. */
export function initProject(
  root: string,
  options: { name?: string | undefined; force: boolean },
): { written: string[]; notes: string[] } {
  const manifestPath = join(root, 'package.json');
  const existing = existsSync(manifestPath) ? readManifest(manifestPath) : undefined;
  const plan = planManifest(existing, options.name ?? packageNameOf(root), toolkitVersion(), options.force);
  const taken = PROJECT_FILES.map(([path]) => path).filter((path) => existsSync(join(root, path)));
  if (!options.force && (taken.length > 0 || plan.conflicts.length > 0)) {
    throw new InputError(
      `would overwrite ${[...taken, ...plan.conflicts.map((conflict) => `package.json ${conflict}`)].join(', ')}; nothing written (--force overwrites them)`,
    );
  }
  mkdirSync(root, { recursive: true });
  writeFileSync(manifestPath, `${JSON.stringify(plan.manifest, null, 2)}\n`);
  for (const [path, text] of PROJECT_FILES) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { written: ['package.json', ...PROJECT_FILES.map(([path]) => path)], notes: plan.notes };
}

function readManifest(path: string): Manifest {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Manifest;
  } catch {
    // reported below
  }
  throw new InputError(`${path} is not a JSON object; fix it or remove it first`);
}

/** npm package names are lowercase, without spaces; the folder name is the usual choice. */
function packageNameOf(root: string): string {
  return (
    basename(root)
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[._-]+/, '') || 'api'
  );
}

/** The toolkit's packages are released together, so the CLI's own version names all three. */
function toolkitVersion(): string {
  const require = createRequire(import.meta.url);
  const manifest = JSON.parse(readFileSync(require.resolve('@convapi/cli/package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
