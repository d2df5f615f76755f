import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../../support/poll.ts';
import { expectRateLimited } from '../../support/rate-limited.ts';
import { describeWithRedis, startRedis, type RedisServer } from '../../support/redis-server.ts';
import { spawnServer, type SpawnedServer } from '../../support/spawn-server.ts';
import { copyProject, editFile, generateIn } from '../../support/temp-project.ts';
import { newTestDatabase } from '../../support/test-database.ts';
import { issueToken, tokenCli } from '../../support/token-cli.ts';

const LIMIT = 10;
const LEASE_MS = 2000;

/**
 * The example API plus one job type that says which process runs it and for how long, so the test can
 * see every run: the definitions of a copied project, as a user would add a job.
 */
function projectWithTracedJob(): string {
  const root = copyProject();
  editFile(root, 'definitions/queued-jobs.ts', (text) =>
    text.replace(
      '  jobs: {\n',
      `  jobs: {
    traced: job({
      payload: z.object({ tag: z.string(), ms: z.number().int().min(0) }).strict(),
      run: async ({ tag, ms }) => {
        console.log(\`job \${tag} running in \${process.pid}\`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        return { pid: process.pid };
      },
    }),
`,
    ),
  );
  const generated = generateIn(root);
  if (generated.status !== 0) throw new Error(`generate failed:\n${generated.output}`);
  return root;
}

describeWithRedis('two server processes on one PostgreSQL and one Redis behave as one server', () => {
  let redis: RedisServer;
  let databaseUrl: string;
  let servers: SpawnedServer[];
  let headers: Record<string, string>;
  const urlOf = (index: number) => servers[index % servers.length]!.url;

  beforeAll(async () => {
    redis = await startRedis();
    databaseUrl = await newTestDatabase();
    const root = projectWithTracedJob();
    // The settings family's limit is the one under test; the job tests poll the service paths far
    // more than the default 300 calls a minute, which would answer them 429 instead of the job state.
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      RATE_LIMIT_SETTING: `${LIMIT}/60`,
      RATE_LIMIT_SERVICE: '100000/60',
      JOB_LEASE_MS: String(LEASE_MS),
    };
    // Both start at once: the migration runs in one of them while the other waits for its lock.
    servers = await Promise.all([
      spawnServer(env, 'generated/main.ts', root),
      spawnServer(env, 'generated/main.ts', root),
    ]);
    headers = {
      'User-Agent': 'two-processes',
      'Content-Type': 'application/json',
      Authorization: `Bearer ${issueToken(databaseUrl, 'two-processes')}`,
    };
  }, 60_000);

  afterAll(async () => {
    for (const server of servers ?? []) if (server.child.exitCode === null) server.child.kill('SIGTERM');
    await Promise.all((servers ?? []).map((server) => server.exited));
    await redis?.dispose();
  });

  it('a burst of ten times the limit from one client, spread across both, gets exactly `limit` successes', async () => {
    const burst = await Promise.all(
      Array.from({ length: LIMIT * 10 }, async (_, index) => {
        const response = await fetch(`${urlOf(index)}/settings/v1/gui/lang`, { headers });
        return {
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body: (await response.json()) as { errors: { code: string }[] },
        };
      }),
    );
    expect(burst.filter((response) => response.status === 200)).toHaveLength(LIMIT);
    const limited = burst.filter((response) => response.status === 429);
    expect(limited).toHaveLength(LIMIT * 9);
    for (const response of limited) expectRateLimited(response, LIMIT);
  });

  it('a write through one is read through the other with the same ETag', async () => {
    const created = await fetch(`${urlOf(0)}/v1/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ item: 'shared', quantity: 2 }),
    });
    expect(created.status).toBe(201);
    const { uri } = (await created.json()) as { uri: string };
    const path = new URL(uri).pathname;
    const [viaA, viaB] = await Promise.all([
      fetch(`${urlOf(0)}${path}`, { headers }),
      fetch(`${urlOf(1)}${path}`, { headers }),
    ]);
    expect([viaA.status, viaB.status]).toEqual([200, 200]);
    expect(viaA.headers.get('etag')).toBeTruthy();
    expect(viaB.headers.get('etag')).toBe(viaA.headers.get('etag'));
    // A change through B is what A serves next, and A's old tag is stale for B.
    const changed = await fetch(`${urlOf(1)}${path}`, {
      method: 'PATCH',
      headers: { ...headers, 'If-Match': viaA.headers.get('etag')! },
      body: JSON.stringify({ quantity: 3 }),
    });
    expect(changed.status).toBe(200);
    const stale = await fetch(`${urlOf(0)}${path}`, {
      method: 'PATCH',
      headers: { ...headers, 'If-Match': viaA.headers.get('etag')! },
      body: JSON.stringify({ quantity: 4 }),
    });
    expect(stale.status).toBe(412);
    expect((await fetch(`${urlOf(0)}${path}`, { headers }).then((r) => r.json())) as object).toMatchObject({
      quantity: 3,
    });
  });

  it('a token revoked with the CLI is refused by both within 1 s', async () => {
    const token = issueToken(databaseUrl, 'revocable');
    const bearer = { ...headers, Authorization: `Bearer ${token}` };
    const statuses = async () =>
      Promise.all(servers.map((server) => fetch(`${server.url}/v1/orders`, { headers: bearer }).then((r) => r.status)));
    expect(await statuses()).toEqual([200, 200]);
    const revoked = tokenCli(databaseUrl, 'revoke', token);
    expect(revoked.status).toBe(0);
    const since = Date.now();
    const after = await until(statuses, (current) => current.every((status) => status === 401), 3000);
    expect(after).toEqual([401, 401]);
    expect(Date.now() - since).toBeLessThan(1000);
  });

  it('20 jobs queued across both run exactly once each', async () => {
    const ids = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const response = await fetch(`${urlOf(index)}/services/v1/queued/jobs`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ type: 'traced', tag: `once-${index}`, ms: 50 }),
        });
        expect(response.status).toBe(202);
        return ((await response.json()) as { job_id: number }).job_id;
      }),
    );
    const states = () =>
      Promise.all(
        ids.map((id, index) =>
          fetch(`${urlOf(index + 1)}/services/v1/queued/jobs/${id}`, { headers }).then(
            (r) => r.json() as Promise<{ state: string }>,
          ),
        ),
      );
    const final = await until(states, (jobs) => jobs.every((job) => job.state === 'succeeded'), 20_000);
    expect(final.map((job) => job.state)).toEqual(Array(20).fill('succeeded'));
    const runs = servers
      .flatMap((server) => server.output)
      .filter((line) => /^job once-\d+ running in \d+$/.test(line));
    expect(runs).toHaveLength(20);
    expect(new Set(runs.map((line) => line.split(' ')[1])).size).toBe(20);
  });

  it('kill -9 of the process running a job: the other finishes that job once the lease has run out', async () => {
    const response = await fetch(`${urlOf(0)}/services/v1/queued/jobs`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ type: 'traced', tag: 'orphan', ms: 4000 }),
    });
    const { job_id: id } = (await response.json()) as { job_id: number };
    const runner = await until(
      async () => servers.find((server) => server.output.some((line) => line.startsWith('job orphan running in '))),
      (found) => found !== undefined,
      10_000,
    );
    expect(runner).toBeDefined();
    const survivor = servers.find((server) => server !== runner)!;
    runner!.child.kill('SIGKILL');
    await runner!.exited;
    const killedAt = Date.now();
    const finished = await until(
      () =>
        fetch(`${survivor.url}/services/v1/queued/jobs/${id}`, { headers }).then(
          (r) => r.json() as Promise<{ state: string; result?: { pid: number } }>,
        ),
      (job) => job.state === 'succeeded',
      20_000,
    );
    expect(finished).toMatchObject({ state: 'succeeded', result: { pid: survivor.child.pid } });
    // Taken over only after the lease ran out, never while the dead process might still have held it.
    expect(survivor.output.some((line) => line === `job orphan running in ${survivor.child.pid}`)).toBe(true);
    expect(Date.now() - killedAt).toBeGreaterThan(LEASE_MS - 1500);
  });
});
