import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../support/describe-needing.ts';
import { createDatabase, startPostgres, type PostgresServer } from '../support/postgres-server.ts';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts';
import { POSTGRESQL } from '../support/system-packages.ts';
import { issueToken } from '../support/token-cli.ts';
import { describeInFullRun } from './support/full-run.ts';

const WRITERS_PER_INSTANCE = 4;
const BEFORE_MS = 3_000;
const OUTAGE_MS = 10_000;
const AFTER_MS = 5_000;

/** What one POST came back with. */
type Outcome =
  | { readonly kind: 'acknowledged'; readonly item: string; readonly at: number }
  | { readonly kind: 'refused'; readonly status: number; readonly code: string; readonly retryAfter: string | null }
  | { readonly kind: 'no answer'; readonly error: string };

async function postOrder(url: string, headers: Record<string, string>, item: string): Promise<Outcome> {
  try {
    const response = await fetch(`${url}/v1/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ item, quantity: 1 }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json()) as { errors?: { code: string }[] };
    if (response.status === 201) return { kind: 'acknowledged', item, at: Date.now() };
    return {
      kind: 'refused',
      status: response.status,
      code: body.errors?.[0]?.code ?? '',
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (error) {
    return { kind: 'no answer', error: (error as Error).message };
  }
}

/** Every order's item, read page by page (Link: next) from one instance. */
async function storedItems(url: string, headers: Record<string, string>): Promise<Set<string>> {
  const items = new Set<string>();
  let next: string | undefined = `${url}/v1/orders?limit=500`;
  while (next !== undefined) {
    const response = await fetch(next, { headers });
    expect(response.status).toBe(200);
    for (const order of (await response.json()) as { item: string }[]) items.add(order.item);
    next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  return items;
}

// Two server processes on one PostgreSQL of their own, written to by eight clients while PostgreSQL
// is stopped (fast shutdown) and started again: what was acknowledged must be there afterwards, and
// whatever was not must have been answered 503 dependency_unavailable.
describeInFullRun('PostgreSQL stopped and started under load', () => {
  describeNeeding(POSTGRESQL, 'two instances writing through a PostgreSQL outage', () => {
    let postgres: PostgresServer;
    let servers: SpawnedServer[];
    let headers: Record<string, string>;
    beforeAll(async () => {
      // PostgreSQL's own durability on, as in production: an acknowledged commit is on its disk.
      postgres = await startPostgres({ durable: true });
      const databaseUrl = await createDatabase(postgres.url);
      const env = { DATABASE_URL: databaseUrl, JOB_WORKERS: '0', RATE_LIMIT_RESOURCE: '1000000/60' };
      servers = await Promise.all([spawnServer(env), spawnServer(env)]);
      headers = {
        'User-Agent': 'outage-writers',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${issueToken(databaseUrl, 'outage-writers')}`,
      };
    }, 60_000);
    afterAll(async () => {
      for (const server of servers ?? []) if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await Promise.all((servers ?? []).map((server) => server.exited));
      await postgres?.stop();
    });

    it('every acknowledged write is stored afterwards; every other answer is 503 dependency_unavailable with Retry-After', async () => {
      const outcomes: Outcome[] = [];
      let writing = true;
      const writers = servers.flatMap((server, instance) =>
        Array.from({ length: WRITERS_PER_INSTANCE }, async (_, writer) => {
          for (let n = 0; writing; n += 1) {
            const outcome = await postOrder(server.url, headers, `i${instance}-w${writer}-${n}`);
            outcomes.push(outcome);
            // A refused client waits a little before trying again, as one reading Retry-After would.
            if (outcome.kind !== 'acknowledged') await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, BEFORE_MS));
      await postgres.halt();
      const haltedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      await postgres.resume();
      const resumedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
      writing = false;
      await Promise.all(writers);

      const acknowledged = outcomes.filter((outcome) => outcome.kind === 'acknowledged');
      const refused = outcomes.filter((outcome) => outcome.kind === 'refused');
      const unanswered = outcomes.filter((outcome) => outcome.kind === 'no answer');
      const firstAfter = acknowledged.filter((outcome) => outcome.at >= resumedAt).map((outcome) => outcome.at);
      const stored = await storedItems(servers[0]!.url, headers);
      const lost = acknowledged.filter((outcome) => !stored.has(outcome.item));
      const statuses = Object.entries(
        refused.reduce<Record<string, number>>((counts, outcome) => {
          const key = `${outcome.status} ${outcome.code}`;
          counts[key] = (counts[key] ?? 0) + 1;
          return counts;
        }, {}),
      );
      console.log(
        `postgres outage: ${outcomes.length} POSTs on 2 instances, ${OUTAGE_MS / 1000} s down; acknowledged ${acknowledged.length}, ` +
          `stored afterwards ${acknowledged.length - lost.length}, lost ${lost.length}; refused ${refused.length} ` +
          `(${statuses.map(([key, count]) => `${key} ×${count}`).join(', ') || 'none'}); no answer ${unanswered.length}; ` +
          `acknowledged while down ${acknowledged.filter((outcome) => outcome.at > haltedAt + 1_000 && outcome.at < resumedAt).length}; ` +
          `first acknowledged ${firstAfter.length === 0 ? 'never' : `${Math.min(...firstAfter) - resumedAt} ms`} after PostgreSQL was back`,
      );
      expect(lost).toEqual([]);
      expect(unanswered).toEqual([]);
      expect(refused.length).toBeGreaterThan(0);
      for (const outcome of refused) {
        expect({ status: outcome.status, code: outcome.code }).toEqual({ status: 503, code: 'dependency_unavailable' });
        expect(outcome.retryAfter).toMatch(/^\d+$/);
      }
      expect(firstAfter.length).toBeGreaterThan(0);
      for (const server of servers) expect(server.child.exitCode).toBeNull();
    }, 90_000);
  });
});
