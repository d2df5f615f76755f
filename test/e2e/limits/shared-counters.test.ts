import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { newTestDatabase, testEngine } from '../../support/test-database.ts';
import { until } from '../../support/poll.ts';
import { expectRateLimited } from '../../support/rate-limited.ts';
import { issueToken } from '../../support/token-cli.ts';
import { describeWithRedis, startRedis, type RedisServer } from '../../support/redis-server.ts';

const LIMIT = 6;
const limits = { RATE_LIMIT_RESOURCE: '1000/60', RATE_LIMIT_SERVICE: '1000/60', RATE_LIMIT_SETTING: `${LIMIT}/60` };

/** Two servers on one database, with one client's token valid on both. */
async function twoServers(env: Record<string, string>): Promise<[TestApi, TestApi]> {
  const databaseUrl = await newTestDatabase();
  const a = await startApi({ databaseUrl, env: { ...limits, ...env } });
  const b = await startApi({ databaseUrl, env: { ...limits, ...env } });
  return [a, b];
}

/** A burst from one client (a's token, or the headers given) spread over both servers. */
async function burst(
  servers: readonly TestApi[],
  calls: number,
  headers: Record<string, string> = servers[0]!.headers,
) {
  return Promise.all(
    Array.from({ length: calls }, (_, index) =>
      servers[index % servers.length]!.raw().get('/settings/v1/gui/lang').set(headers),
    ),
  );
}

describe('call-limit counters without Redis', () => {
  it(
    testEngine() === 'postgres'
      ? 'live in PostgreSQL: two servers on one database hold one limit for a client'
      : 'live in each process (SQLite): two servers on one file each allow the limit',
    async () => {
      const servers = await twoServers({});
      try {
        const statuses = (await burst(servers, LIMIT * 10)).map((response) => response.status);
        const expected = testEngine() === 'postgres' ? LIMIT : LIMIT * 2;
        expect(statuses.filter((status) => status === 200)).toHaveLength(expected);
        expect(statuses.filter((status) => status === 429)).toHaveLength(LIMIT * 10 - expected);
      } finally {
        await Promise.all(servers.map((server) => server.close()));
      }
    },
  );
});

describeWithRedis('call-limit counters in Redis (REDIS_URL)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => redis?.dispose());

  it('two servers sharing Redis: a burst of ten times the limit gets exactly `limit` successes, the rest 429 with the headers', async () => {
    const servers = await twoServers({ REDIS_URL: redis.url });
    try {
      const responses = await burst(servers, LIMIT * 10);
      expect(responses.filter((response) => response.status === 200)).toHaveLength(LIMIT);
      const limited = responses.filter((response) => response.status === 429);
      expect(limited).toHaveLength(LIMIT * 9);
      for (const response of limited) expectRateLimited(response, LIMIT);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });

  it('Redis unreachable: requests are still served, each process holding the limit alone; the outage and the recovery are logged once each', async () => {
    const servers = await twoServers({ REDIS_URL: redis.url });
    const logged = (text: string) => servers.flatMap((server) => server.logs).filter((line) => line.includes(text));
    try {
      const readiness = async () =>
        (await servers[0]!.raw().get('/services/v1/health/ready').set('User-Agent', 'probe')).body as {
          status: string;
          checks: Record<string, string>;
        };
      expect(await readiness()).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'ok' } });
      await redis.stop();
      // Readiness reports Redis without failing: every instance still serves.
      const degraded = await readiness();
      expect(degraded.status).toBe('ready');
      expect(degraded.checks.redis).toMatch(/^degraded: /);
      const during = await burst(servers, LIMIT * 6);
      // Served (never a 500), counted in each process's memory: at most the limit per process.
      expect(during.map((response) => response.status).filter((status) => status !== 200 && status !== 429)).toEqual(
        [],
      );
      expect(during.filter((response) => response.status === 200)).toHaveLength(LIMIT * 2);
      for (const response of during.filter((r) => r.status === 200))
        expect(response.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      const outage = logged('Redis call-limit counters unavailable');
      // Once per process (two servers), not once per request.
      expect(outage).toHaveLength(2);

      await redis.restart();
      // Each process reconnects in the background; a call that reaches Redis again logs the recovery.
      const recovered = () => logged('Redis call-limit counters answer again');
      await until(
        async () => (await burst(servers, 2), recovered().length),
        (count) => count === 2,
        15_000,
      );
      expect(recovered()).toHaveLength(2);
      // Shared again: a new client's burst across both servers gets the limit once.
      const other = {
        ...servers[0]!.headers,
        Authorization: `Bearer ${issueToken(servers[0]!.databaseUrl, 'after-the-outage')}`,
      };
      const after = await burst(servers, LIMIT * 4, other);
      expect(after.filter((response) => response.status === 200)).toHaveLength(LIMIT);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});
