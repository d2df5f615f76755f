import { join } from 'node:path';
import { startServer, type ServerProcess } from './server-process.ts';
import { issueToken } from './token.ts';
import { expectStatus } from './raw-request.ts';

/** Limits high enough that no benchmark run is ever answered 429: limits still run, they just never bite. */
const UNBOUNDED_LIMIT = '1000000000/1';

export interface GeneratedServer {
  readonly server: ServerProcess;
  readonly databaseUrl: string;
  /** User-Agent and bearer token: what every request to the generated server must carry. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface GeneratedOptions {
  /** Node flags before the script (a probe preloaded with --import). */
  readonly nodeArgs?: readonly string[];
  /** A command that runs node (see StartOptions.launcher). */
  readonly launcher?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** The database to serve. Default: a fresh SQLite file in `dataDir`. */
  readonly databaseUrl?: string;
}

/**
 * Starts `node <root>/generated/main.ts` as `npm start` does, with every convention on (but without the
 * allocator setting `npm start` adds, MALLOC_MMAP_THRESHOLD_, unless the bench's own environment has it), on a
 * fresh SQLite file in `dataDir` (or the database given), and issues a bearer token for it with the token CLI.
 */
export async function startGenerated(
  root: string,
  dataDir: string,
  name: string,
  {
    nodeArgs = [],
    launcher = [],
    env = {},
    databaseUrl = `sqlite:${join(dataDir, `${name}.db`)}`,
  }: GeneratedOptions = {},
): Promise<GeneratedServer> {
  const { BASE_URL: _baseUrl, ...inherited } = process.env;
  const server = await startServer({
    name,
    args: [...nodeArgs, join(root, 'generated', 'main.ts')],
    cwd: root,
    launcher,
    env: {
      ...inherited,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      RATE_LIMIT_RESOURCE: UNBOUNDED_LIMIT,
      RATE_LIMIT_SERVICE: UNBOUNDED_LIMIT,
      RATE_LIMIT_SETTING: UNBOUNDED_LIMIT,
      ...env,
    },
  });
  const token = issueToken(databaseUrl);
  return { server, databaseUrl, headers: requestHeaders(`Bearer ${token}`) };
}

/** The request headers of every benchmarked request, sent to the baselines too so requests are byte-identical. */
export function requestHeaders(authorization: string): Record<string, string> {
  return { 'User-Agent': 'conventional-api-bench/1', Accept: 'application/json', Authorization: authorization };
}

/** Creates `count` resources through the API itself (POST), one after the other. */
export async function seed(
  baseUrl: string,
  path: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  count: number,
): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    await expectStatus(
      baseUrl,
      { method: 'POST', path, headers: { ...headers, 'Content-Type': 'application/json' }, body },
      201,
    );
  }
}
