import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts';
import { issueToken } from '../support/token-cli.ts';

/**
 * kill -9 during writes: the server process is killed while POSTs are in flight, three
 * times over one SQLite file. Every write the server acknowledged (201) is there after the restart,
 * each row whole, and SQLite's integrity check passes.
 */
const ROUNDS = Number(process.env.DURABILITY_ROUNDS ?? 3);
const WRITERS = 8;

describe('kill -9 while writing: no acknowledged write is lost, the file stays sound', () => {
  const folder = mkdtempSync(join(tmpdir(), 'durability-'));
  const file = join(folder, 'app.db');
  const databaseUrl = `sqlite:${file}`;
  let server: SpawnedServer | undefined;

  afterAll(() => {
    server?.child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  });

  it(`keeps every acknowledged order over ${ROUNDS} kill -9 rounds`, async () => {
    const headers = {
      'User-Agent': 'durability-test',
      Authorization: `Bearer ${issueToken(databaseUrl, 'durability')}`,
      'Content-Type': 'application/json',
    };
    const acknowledged = new Map<number, string>();
    for (let round = 0; round < ROUNDS; round += 1) {
      server = await spawnServer({ DATABASE_URL: databaseUrl, RATE_LIMIT_RESOURCE: '1000000/1' });
      const { url, child } = server;
      let writing = true;
      let sent = 0;
      const writer = async (id: number) => {
        while (writing) {
          const item = `round ${round} writer ${id} order ${sent++}`;
          try {
            const response = await fetch(`${url}/v1/orders`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ item, quantity: 1 }),
            });
            if (response.status === 201)
              acknowledged.set(((await response.json()) as { identity: number }).identity, item);
            else await response.arrayBuffer();
          } catch {
            return; // the connection died with the process: that write was never acknowledged
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, id) => writer(id));
      // Let the writes run, then kill the process without warning, mid-write.
      await new Promise((resolve) => setTimeout(resolve, 400 + round * 150));
      child.kill('SIGKILL');
      writing = false;
      await Promise.all(writers);
      await server.exited;
      server = undefined;
    }
    expect(acknowledged.size).toBeGreaterThan(ROUNDS * WRITERS);

    // After the last kill: a new server on the same file serves every acknowledged order as written.
    server = await spawnServer({ DATABASE_URL: databaseUrl, RATE_LIMIT_RESOURCE: '1000000/1' });
    for (const [identity, item] of acknowledged) {
      const response = await fetch(`${server.url}/v1/orders/${identity}`, { headers });
      expect(response.status, `order ${identity}`).toBe(200);
      expect(await response.json()).toMatchObject({ order_id: identity, item, quantity: 1 });
    }
    server.child.kill('SIGTERM');
    await server.exited;
    server = undefined;
    const db = new DatabaseSync(file);
    expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    db.close();
    console.log(
      `durability: ${acknowledged.size} acknowledged writes over ${ROUNDS} kill -9 rounds, 0 lost; integrity_check ok`,
    );
  }, 120_000);
});
