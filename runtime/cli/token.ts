import { openTokenStore } from '../app/open-backend.ts';
import { isScopeToken, type TokenStore } from '../auth/index.ts';
import { DEFAULT_DATABASE_URL, describeDatabaseUrl, IN_MEMORY, parseDatabaseUrl } from '../storage/index.ts';
import { command, UsageError } from './command.ts';

const USAGE = `usage:
  npm run -s token -- issue --client NAME [--user USER_NAME] [--ttl SECONDS] [--scope SCOPE]...
  npm run -s token -- revoke TOKEN
  npm run -s token -- revoke-grant --client NAME [--user USER_NAME]
  npm run -s token -- refuse-client NAME
  npm run -s token -- --help
--scope (repeatable) grants the token a scope an operation may need (notes:write).
Uses DATABASE_URL (default sqlite:data/app.db; postgres://... too), like the server.`;

const COMMANDS = new Set(['issue', 'revoke', 'revoke-grant', 'refuse-client']);

/** Commands whose one argument is a value given verbatim: a base64url token begins with '-' one time in 64. */
const VALUE_COMMANDS = new Set(['revoke', 'refuse-client']);

/** argv with `--` after a value command, so its value is never read as an option ('-Ix…' is a token, not -I). */
function valueAsGiven(argv: readonly string[]): string[] {
  const [command, value, ...rest] = argv;
  if (
    command === undefined ||
    value === undefined ||
    !VALUE_COMMANDS.has(command) ||
    value === '--' ||
    value === '--help'
  )
    return [...argv];
  return [command, '--', value, ...rest];
}

/**
 * The token CLI of the contract. It writes to the same store as the server, on either engine, so a
 * running server honours a revocation or refusal within half a second (authenticate() reuses a
 * verification for 500 ms at most). Exit 0 done, 1 failed (one line, e.g. an unreachable database), 2 usage.
 */
export const run = command({
  name: 'token',
  usage: USAGE,
  options: {
    client: { type: 'string' },
    user: { type: 'string' },
    ttl: { type: 'string' },
    scope: { type: 'string', multiple: true },
  },
  allowPositionals: true,
  prepare: valueAsGiven,
  main: async ({ positionals, values }): Promise<number> => {
    const [name, argument, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    if (name === undefined || !COMMANDS.has(name))
      throw new UsageError(name === undefined ? 'a command is required' : `unknown command "${name}"`);
    const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
    const location = parseDatabaseUrl(databaseUrl);
    if (location.kind === 'sqlite' && location.path === IN_MEMORY) {
      throw new UsageError(
        'DATABASE_URL=sqlite::memory: lives inside the server process, out of reach of this command: start the server with `npm start -- --issue-token NAME` to have it print a token, or use a database file',
      );
    }
    const opened = await openTokenStore(databaseUrl);
    try {
      return await runCommand(opened.tokens, name, argument, values, describeDatabaseUrl(databaseUrl));
    } finally {
      await opened.close();
    }
  },
});

interface TokenValues {
  readonly client?: string | undefined;
  readonly user?: string | undefined;
  readonly ttl?: string | undefined;
  readonly scope?: string[] | undefined;
}

async function runCommand(
  store: TokenStore,
  name: string,
  argument: string | undefined,
  values: TokenValues,
  /** The database, as a log line may name it: said with the token, as a server on another one answers it 401. */
  database: string,
): Promise<number> {
  switch (name) {
    case 'issue': {
      const client = required(values.client, '--client NAME');
      const ttl = values.ttl === undefined ? undefined : Number(values.ttl);
      if (ttl !== undefined && (!Number.isSafeInteger(ttl) || ttl < 1))
        throw new UsageError('--ttl must be a whole number of seconds, at least 1');
      const scopes = values.scope ?? [];
      const malformed = scopes.find((scope) => !isScopeToken(scope));
      if (malformed !== undefined)
        throw new UsageError(
          `--scope "${malformed}" is not a scope: printable ASCII without spaces, quotes or backslashes (notes:write)`,
        );
      const token = await store.issue({
        client,
        ...(values.user === undefined ? {} : { user: values.user }),
        ...(ttl === undefined ? {} : { ttlSeconds: ttl }),
        ...(scopes.length === 0 ? {} : { scopes }),
      });
      const granted = scopes.length === 0 ? '' : `, with scope${scopes.length === 1 ? '' : 's'} ${scopes.join(' ')}`;
      console.error(
        `issued a token for client ${client}${values.user === undefined ? '' : ` acting for ${values.user}`}${ttl === undefined ? '' : `, valid ${ttl} s`}${granted}, in ${database}`,
      );
      console.log(token);
      return 0;
    }
    case 'revoke':
      console.log(
        (await store.revoke(required(argument, 'TOKEN'))) ? 'revoked' : 'no such active token (nothing to revoke)',
      );
      return 0;
    case 'revoke-grant': {
      const client = required(values.client, '--client NAME');
      console.log(
        (await store.revokeGrant(client, values.user))
          ? 'grant revoked with all its tokens'
          : 'no such grant (nothing to revoke)',
      );
      return 0;
    }
    default:
      await store.refuseClient(required(argument, 'NAME'));
      console.log(`client ${argument} refused`);
      return 0;
  }
}

function required(value: string | undefined, what: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${what} is required`);
  return value;
}
