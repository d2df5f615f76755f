import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { spawnServer } from '../support/spawn-server.ts';
import { issueToken } from '../support/token-cli.ts';
import { describeInFullRun } from './support/full-run.ts';

const BEFORE = 10;
const AFTER = 20;
const health = { 'User-Agent': 'ELB-HealthChecker/2.0' };

// The database folder removed under a running server, as an operator's mistake or a cleanup job would.
describeInFullRun('the database folder removed while the server runs', () => {
  it(`${BEFORE} orders written, the folder removed, ${AFTER} more sent: none of those is acknowledged, readiness fails, the restart refuses the missing folder`, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'lost-folder-'));
    const databaseUrl = `sqlite:${folder}/app.db`;
    const headers = {
      'User-Agent': 'lost-folder-probe',
      'Content-Type': 'application/json',
      Authorization: `Bearer ${issueToken(databaseUrl, 'probe')}`,
    };
    const server = await spawnServer({ DATABASE_URL: databaseUrl, JOB_WORKERS: '0' });
    const post = (item: string) =>
      fetch(`${server.url}/v1/orders`, { method: 'POST', headers, body: JSON.stringify({ item, quantity: 1 }) });
    try {
      for (let index = 0; index < BEFORE; index += 1) expect((await post(`before ${index}`)).status).toBe(201);
      rmSync(folder, { recursive: true, force: true });
      const statuses: number[] = [];
      const codes = new Set<string>();
      for (let index = 0; index < AFTER; index += 1) {
        const response = await post(`after ${index}`);
        statuses.push(response.status);
        codes.add(((await response.json()) as { errors: { code: string }[] }).errors?.[0]?.code ?? '');
      }
      const ready = await fetch(`${server.url}/services/v1/health/ready`, { headers: health });
      console.log(
        `lost folder: ${BEFORE} acknowledged before; after removal ${statuses.filter((status) => status === 201).length} of ${AFTER} acknowledged ` +
          `(${statuses.filter((status) => status === 503).length}×503 ${[...codes].join(', ')}), readiness ${ready.status}`,
      );
      expect(statuses).toEqual(Array.from({ length: AFTER }, () => 503));
      expect([...codes]).toEqual(['dependency_unavailable']);
      expect(ready.status).toBe(503);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
    // A restart does not quietly begin an empty database where the folder was.
    const restarted = await spawnServer({ DATABASE_URL: databaseUrl, JOB_WORKERS: '0' }).then(
      (again) => {
        again.child.kill('SIGTERM');
        return 'started';
      },
      (error: Error) => error.message,
    );
    expect(restarted).toMatch(/exited with 1 before listening[\s\S]*cannot start/);
  }, 60_000);
});
