import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, type SpawnedServer } from '../../support/spawn-server.ts';
import { newTestDatabase } from '../../support/test-database.ts';
import { issueToken } from '../../support/token-cli.ts';
import { until } from '../../support/poll.ts';

const WRITERS = 6;
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
const dayAfter = () => new Date(Date.now() + 2 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * A reservation and what its effects write (an audit entry, a reminder job) commit in one
 * transaction: the server process is killed (SIGKILL) while reservations are being made, and after a
 * restart every reservation has its audit entry and every audit entry its reservation (neither or
 * both, never one), and each reservation's queued reminder runs.
 */
describe('effects in the same transaction: kill -9 between a write and its effects leaves neither or both', () => {
  let server: SpawnedServer | undefined;
  afterAll(() => {
    server?.child.kill('SIGKILL');
  });

  it('every reservation has exactly its audit entry after a kill mid-write, and its reminder runs after the restart', async () => {
    const databaseUrl = await newTestDatabase();
    const headers = {
      'User-Agent': 'effects-test',
      Authorization: `Bearer ${issueToken(databaseUrl, 'effects')}`,
      'Content-Type': 'application/json',
    };
    const env = {
      DATABASE_URL: databaseUrl,
      RATE_LIMIT_RESOURCE: '1000000/1',
      RATE_LIMIT_SERVICE: '1000000/1',
      JOB_LEASE_MS: '1000',
    };
    server = await spawnServer(env);
    const acknowledged = new Set<number>();
    let writing = true;
    const writer = async (id: number) => {
      for (let sent = 0; writing; sent += 1) {
        const body = {
          guest_name: `guest ${id}`,
          room: `room ${id}-${sent}`,
          starts_at: tomorrow(),
          ends_at: dayAfter(),
        };
        try {
          const response = await fetch(`${server!.url}/v1/reservations`, {
            method: 'POST',
            headers,
            body: JSON.stringify(body),
          });
          if (response.status === 201) acknowledged.add(((await response.json()) as { identity: number }).identity);
          else await response.arrayBuffer();
        } catch {
          return; // the process died with this write in flight: it was never acknowledged
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, id) => writer(id));
    await until(
      async () => acknowledged.size,
      (size) => size >= 20,
      20_000,
    );
    server.child.kill('SIGKILL');
    writing = false;
    await Promise.all(writers);
    await server.exited;

    server = await spawnServer(env);
    const all = async (path: string) => {
      const rows: Record<string, unknown>[] = [];
      for (let offset = 0; ; offset += 500) {
        const page = (await (
          await fetch(`${server!.url}${path}&limit=500&offset=${offset}`, { headers })
        ).json()) as Record<string, unknown>[];
        rows.push(...page);
        if (page.length < 500) return rows;
      }
    };
    const reservations = new Set((await all('/v1/reservations?')).map((row) => row.reservation_id as number));
    const audited = (await all('/v1/audits?action=reserved')).map((row) =>
      Number(/^reservation (\d+):/.exec(row.summary as string)![1]),
    );
    for (const id of acknowledged) expect(reservations.has(id), `acknowledged reservation ${id}`).toBe(true);
    // Neither or both: the audit entries name exactly the reservations stored, each once.
    expect([...audited].sort((a, b) => a - b)).toEqual([...reservations].sort((a, b) => a - b));
    // The reminder each one queued runs (a job left running by the killed process is queued again at its lease's end).
    const reminded = await until(
      async () =>
        new Set(
          (await all('/v1/audits?action=reminded')).map((row) =>
            Number(/^reservation (\d+):/.exec(row.summary as string)![1]),
          ),
        ),
      (found) => found.size >= reservations.size,
      60_000,
    );
    expect([...reminded].sort((a, b) => a - b)).toEqual([...reservations].sort((a, b) => a - b));
    console.log(
      `effects: ${reservations.size} reservations after kill -9 (${acknowledged.size} acknowledged), ${audited.length} audit entries, ${reminded.size} reminders`,
    );
    server.child.kill('SIGTERM');
    await server.exited;
    server = undefined;
  }, 180_000);
});
