import { execFileSync } from 'node:child_process';
import { repoPath, SOURCE_CONDITION } from './paths.ts';

/**
 * Issues a bearer token with the project's token CLI on the server's DATABASE_URL (contract: the token
 * alone on the last stdout line), for a user and with scopes when asked. Runs the CLI script with this Node directly rather than through
 * `npm run`, which would add npm's start-up and tie the call to the repository's working directory.
 */
export function issueToken(
  databaseUrl: string,
  client = 'bench',
  { user, scopes = [] }: { readonly user?: string; readonly scopes?: readonly string[] } = {},
): string {
  const grants = [...(user === undefined ? [] : ['--user', user]), ...scopes.flatMap((scope) => ['--scope', scope])];
  const stdout = execFileSync(
    process.execPath,
    [SOURCE_CONDITION, repoPath('runtime', 'cli', 'token-bin.ts'), 'issue', '--client', client, ...grants],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const token = stdout.trim().split('\n').at(-1)?.trim() ?? '';
  if (token === '') throw new Error('the token CLI printed no token');
  return token;
}
