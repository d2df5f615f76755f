import { spawnSync } from 'node:child_process';
import { REPOSITORY, SOURCE_CONDITION } from './spawn-server.ts';

/**
 * Runs the token CLI (`npm run -s token -- ...`) as its own process on a DATABASE_URL, as an
 * operator would, and returns its exit code and output lines.
 */
export function tokenCli(
  databaseUrl: string,
  ...args: string[]
): { status: number | null; lines: string[]; stderr: string } {
  const result = spawnSync(process.execPath, [...SOURCE_CONDITION, 'runtime/cli/token-bin.ts', ...args], {
    cwd: REPOSITORY,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  return { status: result.status, lines: result.stdout.trim().split('\n'), stderr: result.stderr };
}

/** Every token issued by this test process: no server log line may contain one. */
export const issuedTokens = new Set<string>();

/** Issues a token with the CLI and returns it (the last stdout line). */
export function issueToken(
  databaseUrl: string,
  client: string,
  options: { user?: string; ttl?: number; scopes?: readonly string[] } = {},
): string {
  const args = ['issue', '--client', client];
  if (options.user !== undefined) args.push('--user', options.user);
  if (options.ttl !== undefined) args.push('--ttl', String(options.ttl));
  for (const scope of options.scopes ?? []) args.push('--scope', scope);
  const { status, lines, stderr } = tokenCli(databaseUrl, ...args);
  if (status !== 0) throw new Error(`token issue failed (${status}): ${stderr}`);
  const token = lines.at(-1) ?? '';
  issuedTokens.add(token);
  return token;
}
