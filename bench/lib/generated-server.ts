import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startServer, type ServerProcess } from './server-process.ts';
import { issueToken } from './token.ts';
import { expectStatus } from './raw-request.ts';

/** Limits high enough that no benchmark run is ever answered 429: limits still run, they just never bite. */
const UNBOUNDED_LIMIT = '1000000000/1';
/** The generated server's call limits, every family's, set that high. */
export const UNBOUNDED_LIMITS: Readonly<Record<string, string>> = {
  RATE_LIMIT_RESOURCE: UNBOUNDED_LIMIT,
  RATE_LIMIT_SERVICE: UNBOUNDED_LIMIT,
  RATE_LIMIT_SETTING: UNBOUNDED_LIMIT,
};

export interface GeneratedServer {
  readonly server: ServerProcess;
  readonly databaseUrl: string;
  /** User-Agent and bearer token: what every request to the generated server must carry. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface GeneratedOptions {
  /** Node flags (a probe preloaded with --import), given through NODE_OPTIONS. */
  readonly nodeArgs?: readonly string[];
  /** A command that runs node (see StartOptions.launcher). */
  readonly launcher?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** The database to serve. Default: a fresh SQLite file in `dataDir`. */
  readonly databaseUrl?: string;
}

/**
 * Starts the generated server of `root` as `npm start` does, by running the root's own start script
 * (package.json `scripts.start`, with its allocator setting and V8 flags) with `sh -c`, with every
 * convention on, on a fresh SQLite file in `dataDir` (or the database given), and issues a bearer
 * token for it with the token CLI. `nodeArgs` reach node through NODE_OPTIONS.
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
    script: startScript(root),
    cwd: root,
    launcher,
    env: {
      ...inherited,
      NODE_OPTIONS: [inherited.NODE_OPTIONS ?? '', ...nodeArgs].join(' ').trim(),
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      ...UNBOUNDED_LIMITS,
      ...env,
    },
  });
  if (!processIsNode(server.pid)) {
    await server.stop();
    throw new Error(
      `${name}: ${root}/package.json's start script must end by exec-ing node, so its process is the server`,
    );
  }
  const token = issueToken(databaseUrl);
  return { server, databaseUrl, headers: requestHeaders(`Bearer ${token}`) };
}

/** The `npm start` command line of the project at `root` (its package.json `scripts.start`). */
export function startScript(root: string): string {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: { start?: unknown } };
  const script = manifest.scripts?.start;
  if (typeof script !== 'string') throw new Error(`${root}/package.json has no start script`);
  return script;
}

/** Whether the process is node itself (the bench samples that pid's memory and CPU), not a shell around it. */
function processIsNode(pid: number): boolean {
  return basename(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '') === 'node';
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
