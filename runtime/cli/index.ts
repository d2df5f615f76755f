/** The runtime's command-line pieces: the one command-line behaviour every CLI shares, and the token command for a CLI that dispatches to it. */
export { command, InputError, UsageError, type CommandSpec, type Parsed } from './command.ts';

/**
 * The token command (`convapi token ...`), loaded when it runs: the token module opens the stores
 * (node:sqlite, pg, Redis), which a CLI that only lints or generates should not pay for at start-up.
 */
export async function runTokenCommand(args: string[]): Promise<number> {
  return (await import('./token.ts')).run(args);
}

/**
 * `convapi migrate status` / `--dry-run` (migrate-report.ts), loaded when it runs: it opens the
 * database, which writing a migration does not need.
 */
export async function reportMigrations(root: string, what: 'status' | 'sql'): Promise<number> {
  return (await import('./migrate-report.ts')).reportMigrations(root, what);
}
