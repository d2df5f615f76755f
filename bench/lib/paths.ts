import { fileURLToPath } from 'node:url';

/** The repository root (bench/ lives directly under it). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A file under the repository root. */
export function repoPath(...segments: string[]): string {
  return [REPO_ROOT.replace(/\/$/, ''), ...segments].join('/');
}

/** Node's flag that resolves the workspace packages to their TypeScript sources, as the npm scripts do. */
export const SOURCE_CONDITION = '--conditions=source';
