import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_CONDITION } from '../../support/spawn-server.ts';
import { editFile, generateIn, serveCopiedProject, serveProject } from '../../support/temp-project.ts';
import { newTestDatabase } from '../../support/test-database.ts';

/** `npm start` in a project until it ends (at most 20 s): its exit code and the lines it printed. */
function start(root: string, databaseUrl: string) {
  const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [...SOURCE_CONDITION, 'generated/main.ts'], { cwd: root, env: { ...inherited, PORT: '0', DATABASE_URL: databaseUrl }, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, lines: `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => line.trim() !== '') };
}

const messageOf = (line: string) => (line.startsWith('{') ? String((JSON.parse(line) as { msg?: unknown }).msg) : line);

describe('a definition change no migration covers stops the start', () => {
  let databaseUrl: string;
  let root: string;
  let served: Awaited<ReturnType<typeof serveProject>> | undefined;

  beforeAll(async () => {
    databaseUrl = await newTestDatabase();
    served = await serveCopiedProject(() => undefined, databaseUrl);
    root = served.root;
    const created = await fetch(`${served.server.url}/v1/products/blue-mug`, { method: 'PUT', headers: served.headers, body: JSON.stringify({ title: '331234', price: 2 }) });
    expect(created.status).toBe(201);
    await served.stop();
    served = undefined;
  }, 120_000);
  afterAll(async () => served?.stop());

  it('string -> integer without a migration: one `cannot start:` line naming the table and column, exit 1', { timeout: 120_000 }, async () => {
    editFile(root, 'definitions/products.ts', (text) => text.replace('title: field.string({ required: true, minLength: 1, filterable: true })', 'title: field.integer({ required: true, filterable: true })'));
    // generate writes generated/ anyway (the migration is written once the definition is right); the check is CI's.
    const generated = generateIn(root);
    expect(generated.status, generated.output).toBe(0);
    expect(generated.output).toMatch(/definitions\/products\.ts:\d+:\d+ error migration-missing products\.title changes from string to integer; .*migrate new/);
    expect(generateIn(root, '--check').status).toBe(1);
    const outcome = start(root, databaseUrl);
    expect(outcome.status).toBe(1);
    expect(outcome.lines).toHaveLength(1);
    expect(messageOf(outcome.lines[0]!)).toMatch(new RegExp(`^cannot start: column products\\.title is text in the database but the definitions declare an integer \\((bigint|integer)\\); write the migration with \`npm run convapi -- migrate new <name>\``));
  });

  it('once the migration is written, the same start converts the value and serves it as an integer', { timeout: 180_000 }, async () => {
    served = await serveProject(root, databaseUrl);
    const response = await fetch(`${served.server.url}/v1/products/blue-mug`, { headers: served.headers });
    expect(await response.json()).toMatchObject({ sku: 'blue-mug', title: 331234, price: 2 });
  });
});
