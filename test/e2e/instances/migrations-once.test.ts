import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY, spawnServer, type SpawnedServer } from '../../support/spawn-server.ts';
import { editFile, migrateNew, serveCopiedProject } from '../../support/temp-project.ts';
import { newTestDatabase } from '../../support/test-database.ts';
import { issueToken } from '../../support/token-cli.ts';

/**
 * Three instances of a project start at once on one PostgreSQL database with two pending migrations
 * that would fail if run twice (a rename, a conversion): each is applied once, under the migration
 * lock, and every instance serves the converted rows.
 */
describe('instances starting together apply each migration once', () => {
  let databaseUrl: string;
  let servers: SpawnedServer[] = [];

  beforeAll(async () => {
    databaseUrl = await newTestDatabase();
    const first = await serveCopiedProject(() => undefined, databaseUrl);
    for (const [sku, title] of [
      ['a', '12'],
      ['b', '34'],
    ]) {
      expect(
        (
          await fetch(`${first.server.url}/v1/products/${sku}`, {
            method: 'PUT',
            headers: first.headers,
            body: JSON.stringify({ title, price: 1 }),
          })
        ).status,
      ).toBe(201);
    }
    await first.stop();
    const root = first.root;
    const migrate = (name: string) => {
      const result = migrateNew(root, name);
      expect(result.status, result.output).toBe(0);
    };
    editFile(root, 'definitions/products.ts', (text) =>
      text.replace('    title: field.string({', "    label: field.string({ renamedFrom: 'title',"),
    );
    migrate('rename-title');
    editFile(root, 'definitions/products.ts', (text) =>
      text.replace(
        "label: field.string({ renamedFrom: 'title', required: true, minLength: 1, filterable: true })",
        "label: field.integer({ renamedFrom: 'title', required: true, filterable: true })",
      ),
    );
    migrate('label-to-integer');
    const env = { DATABASE_URL: databaseUrl };
    servers = await Promise.all([0, 1, 2].map(() => spawnServer(env, 'generated/main.ts', root)));
  }, 240_000);

  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
  });

  it('records each migration once, and every instance serves the converted rows', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>('SELECT id FROM convapi_migrations ORDER BY id');
      // The example API's own migrations first, then the test's two, each recorded once.
      const shipped = readdirSync(join(REPOSITORY, 'migrations'))
        .filter((name) => name.endsWith('.json'))
        .map((name) => name.replace(/\.json$/, ''))
        .sort();
      const ours = ['rename-title', 'label-to-integer'].map(
        (name, index) => `${String(shipped.length + index + 1).padStart(4, '0')}_${name}`,
      );
      expect(rows.map((row) => row.id)).toEqual([...shipped, ...ours]);
    } finally {
      await client.end();
    }
    const headers = {
      'User-Agent': 'migrations-once',
      Authorization: `Bearer ${issueToken(databaseUrl, 'migrations-once')}`,
    };
    for (const server of servers) {
      const response = await fetch(`${server.url}/v1/products`, { headers });
      const body = (await response.json()) as { sku: string; label: unknown }[];
      expect(body.map(({ sku, label }) => ({ sku, label })).sort((x, y) => x.sku.localeCompare(y.sku))).toEqual([
        { sku: 'a', label: 12 },
        { sku: 'b', label: 34 },
      ]);
    }
  });
});
