import { fileURLToPath } from 'node:url';

/** The repository root (bench/ lives directly under it). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A file under the repository root. */
export function repoPath(...segments: string[]): string {
  return [REPO_ROOT.replace(/\/$/, ''), ...segments].join('/');
}
