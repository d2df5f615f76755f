import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type SpawnedServer } from '../../support/spawn-server.ts';
import { newTestDatabase, testEngine } from '../../support/test-database.ts';
import { issueToken } from '../../support/token-cli.ts';
import { until } from '../../support/poll.ts';

const PROBE = fileURLToPath(new URL('../../support/loaded-modules-probe.ts', import.meta.url));
/** Node's fetch (undici), loaded whole: about 13 MB resident that a server on node:http never uses. */
const UNDICI = 'NativeModule internal/deps/undici/undici';

interface Loaded {
  readonly builtins: readonly string[];
  readonly files: readonly string[];
}

/** What the server has loaded so far, as the preloaded probe reports it. */
async function loaded(server: SpawnedServer): Promise<Loaded> {
  const seen = server.output.length;
  server.child.kill('SIGUSR2');
  const reported = () => server.output.slice(seen).find((candidate) => candidate.startsWith('loaded-modules '));
  const line = await until(
    async () => reported(),
    (found) => found !== undefined,
  );
  return JSON.parse(line!.slice('loaded-modules '.length)) as Loaded;
}

/** The names of the server's threads (Linux: /proc/<pid>/task/<tid>/comm); a worker thread is `WorkerThread`. */
const threadNames = (server: SpawnedServer) =>
  readdirSync(`/proc/${server.child.pid}/task`).map((tid) =>
    readFileSync(`/proc/${server.child.pid}/task/${tid}/comm`, 'utf8').trim(),
  );

/** The packages among the loaded files, by name. */
const packagesOf = ({ files }: Loaded) =>
  new Set(files.flatMap((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []));

describe('what the server loads to start and to answer, with the defaults (JSON logs, no metrics)', () => {
  let server: SpawnedServer;
  let databaseUrl: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    databaseUrl = await newTestDatabase();
    server = await spawnServer({
      DATABASE_URL: databaseUrl,
      JOB_WORKERS: '0',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PROBE}`.trim(),
    });
    headers = { 'User-Agent': 'probe', Authorization: `Bearer ${issueToken(databaseUrl, 'probe')}` };
    const created = await fetch(`${server.url}/v1/orders`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: '{"item":"x","quantity":1}',
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${server.url}/v1/orders?limit=20`, { headers })).status).toBe(200);
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it("never loads Node's fetch (undici)", async () => {
    expect((await loaded(server)).builtins).not.toContain(UNDICI);
  });

  it('loads neither the metrics library (prom-client) nor the pretty logger (pino-pretty)', async () => {
    const packages = packagesOf(await loaded(server));
    // The probe sees the packages the server did load: koa, which every request goes through.
    expect(packages).toContain('koa');
    expect(packages).not.toContain('prom-client');
    expect(packages).not.toContain('@opentelemetry/api');
    expect(packages).not.toContain('pino-pretty');
    // No JWT verification configured: its library is never needed.
    expect(packages).not.toContain('jose');
  });

  // About 1 MB of JSON each, 2 MiB of V8's heap for the two once parsed.
  it('reads the OpenAPI documents with the first request for one, not at start-up', async () => {
    const documents = ({ files }: Loaded) => files.filter((file) => /generated\/openapi\/v\d+\.json$/.test(file));
    expect(documents(await loaded(server))).toEqual([]);
    const served = await fetch(`${server.url}/services/v1/openapi`, { headers });
    expect(served.status).toBe(200);
    expect(((await served.json()) as { info: { version: string } }).info.version).toBe('v1');
    expect(documents(await loaded(server))).toEqual([expect.stringMatching(/generated\/openapi\/v1\.json$/)]);
  });

  // The search thread holds its own V8 heap and SQLite connection: about 27 MB resident.
  it.runIf(existsSync('/proc/self/task') && testEngine() === 'sqlite')(
    'starts the search thread at the first search, not before',
    async () => {
      expect(threadNames(server)).not.toContain('WorkerThread');
      const search = await fetch(`${server.url}/services/v1/search?category=orders&q=x`, { headers });
      expect(search.status).toBe(200);
      expect(threadNames(server)).toContain('WorkerThread');
    },
  );
});

describe('JWT verification configured: jose is loaded with the first JWT, not at start-up', () => {
  const issuer = 'https://issuer.example.test';
  const audience = 'startup-memory';
  const secret = 'a-shared-secret-of-at-least-32-bytes!!';
  let server: SpawnedServer;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await newTestDatabase();
    server = await spawnServer({
      DATABASE_URL: databaseUrl,
      JOB_WORKERS: '0',
      JWT_ISSUER: issuer,
      JWT_AUDIENCE: audience,
      JWT_ALGORITHMS: 'HS256',
      JWT_SECRET: secret,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PROBE}`.trim(),
    });
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('answers opaque tokens without jose, and loads it to verify the first JWT', async () => {
    const opaque = { 'User-Agent': 'probe', Authorization: `Bearer ${issueToken(databaseUrl, 'probe')}` };
    expect((await fetch(`${server.url}/v1/orders?limit=20`, { headers: opaque })).status).toBe(200);
    expect(packagesOf(await loaded(server))).not.toContain('jose');

    const token = await new SignJWT({ client_id: 'jwt-client' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(secret));
    const answer = await fetch(`${server.url}/v1/orders?limit=20`, {
      headers: { 'User-Agent': 'probe', Authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(200);
    expect(packagesOf(await loaded(server))).toContain('jose');
  });
});
