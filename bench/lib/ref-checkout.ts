import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';
import { tempDir } from './temp.ts';

export interface RefCheckout {
  /** The checkout's root, a project like this one. */
  readonly root: string;
  /** The commit the ref named, abbreviated. */
  readonly commit: string;
  readonly remove: () => void;
}

/**
 * A detached git worktree of `ref` in a temporary folder, runnable without an install: its
 * node_modules links every package of this repository's node_modules, except that the checkout's own
 * workspace packages (when it has any) link to its own folders, so its generated server runs its own
 * runtime. The ref must need no dependency this repository's node_modules lacks.
 */
export function checkoutRef(ref: string): RefCheckout {
  const commit = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  }).trim();
  const root = join(tempDir('ref'), commit);
  execFileSync('git', ['worktree', 'add', '--detach', root, commit], { cwd: REPO_ROOT, stdio: 'ignore' });
  const own = workspacePackages(root);
  const modules = join(root, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (!entry.startsWith('@')) {
      symlinkSync(join(REPO_ROOT, 'node_modules', entry), join(modules, entry));
      continue;
    }
    mkdirSync(join(modules, entry));
    for (const name of readdirSync(join(REPO_ROOT, 'node_modules', entry))) {
      const scoped = `${entry}/${name}`;
      symlinkSync(own.get(scoped) ?? join(REPO_ROOT, 'node_modules', scoped), join(modules, scoped));
    }
  }
  return {
    root,
    commit,
    remove: () => execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: REPO_ROOT, stdio: 'ignore' }),
  };
}

/** Package name → folder, for the workspaces the checkout's package.json declares. */
function workspacePackages(root: string): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const packages = new Map<string, string>();
  for (const folder of manifest.workspaces ?? []) {
    const file = join(root, folder, 'package.json');
    if (existsSync(file))
      packages.set((JSON.parse(readFileSync(file, 'utf8')) as { name: string }).name, join(root, folder));
  }
  return packages;
}
