import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY, SOURCE_CONDITION } from '../../support/spawn-server.ts';
import { CLI, editFile, serveCopiedProject, serveProject } from '../../support/temp-project.ts';
import { newTestDatabase } from '../../support/test-database.ts';

type Served = Awaited<ReturnType<typeof serveProject>>;

/** `npm run convapi -- migrate ...` in a project, on a database. */
function migrate(root: string, databaseUrl: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, 'migrate', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, DATABASE_URL: databaseUrl } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * The number `migrate new` gives the test's nth migration of its own (1 = the first): the example API
 * ships its migrations, and the test's follow them.
 */
const shipped = readdirSync(join(REPOSITORY, 'migrations')).filter((name) => name.endsWith('.json')).length;
const numbered = (nth: number, name: string) => `${String(shipped + nth).padStart(4, '0')}_${name}`;

const replace = (from: string, to: string) => (text: string) => {
  if (!text.includes(from)) throw new Error(`the definition no longer has ${from}`);
  return text.replace(from, to);
};

/**
 * One database holding rows, taken through the documented commands step by step: each step changes
 * definitions, writes its migration with `migrate new`, and starts the server on the same database,
 * which applies it; the rows are read back through the API.
 */
describe('changing stored data with migrations, on a database holding rows', () => {
  let databaseUrl: string;
  let served: Served;
  let root: string;
  const get = async (path: string) => {
    const response = await fetch(`${served.server.url}${path}`, { headers: served.headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & Record<string, unknown>[] };
  };
  const send = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${served.server.url}${path}`, { method, headers: served.headers, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** Stops the server, applies `edits` to definitions, writes the migration, starts again on the same database. */
  const step = async (name: string, edits: Record<string, (text: string) => string>, ...flags: string[]) => {
    await served.stop();
    for (const [file, edit] of Object.entries(edits)) editFile(root, `definitions/${file}`, edit);
    const written = migrate(root, databaseUrl, 'new', name, ...flags);
    expect(written.status, written.output).toBe(0);
    served = await serveProject(root, databaseUrl);
    return written.output;
  };

  beforeAll(async () => {
    databaseUrl = await newTestDatabase();
    served = await serveCopiedProject(() => undefined, databaseUrl);
    root = served.root;
    expect((await send('PUT', '/v1/products/blue-mug', { title: 'Blue mug', price: 4.5 })).status).toBe(201);
    expect((await send('PUT', '/v1/products/red-cup', { title: 'Red cup', price: 3 })).status).toBe(201);
  }, 120_000);
  afterAll(async () => served?.stop());

  it('the example API starts on its baseline: migrate status lists it applied', () => {
    const status = migrate(root, databaseUrl, 'status');
    expect(status.status).toBe(0);
    expect(status.output).toMatch(/^applied {2}0001_baseline {2}\d{4}-\d\d-\d\dT/m);
    expect(status.output).not.toContain('pending');
  });

  it('adds fields with their defaults and indexes: the rows stored before hold the defaults, and the filter uses them', { timeout: 180_000 }, async () => {
    const output = await step('add-code', {
      'products.ts': (text) =>
        replace('    title: field.string({ required: true, minLength: 1, filterable: true }),', "    title: field.string({ required: true, minLength: 1, filterable: true, searchable: true }),\n    code: field.string({ default: '100', filterable: true }),\n    stock: field.integer({ default: 7, filterable: true }),")(text),
    });
    expect(output).toContain('field products.code (string) is new; rows stored before hold its default "100"');
    expect(output).toContain('the searchable fields of products change to title');
    expect((await get('/v1/products/blue-mug')).body).toMatchObject({ sku: 'blue-mug', title: 'Blue mug', price: 4.5, code: '100', stock: 7 });
    expect((await send('PATCH', '/v1/products/red-cup', { code: '250', stock: 12 })).status).toBe(200);
    expect((await get('/v1/products?code=250')).body.map((product) => product.sku)).toEqual(['red-cup']);
    expect((await get('/services/v1/search?q=red&category=products')).body.map((product) => product.sku)).toEqual(['red-cup']);
  });

  it('renames a field (declared), converts string to integer and renames the collection in one migration: values move and change type', { timeout: 180_000 }, async () => {
    await served.stop();
    editFile(root, 'definitions/products.ts', replace('    title: field.string({', "    name: field.string({ renamedFrom: 'title',"));
    editFile(root, 'definitions/products.ts', replace("code: field.string({ default: '100', filterable: true })", 'code: field.integer({ default: 100, filterable: true })'));
    editFile(root, 'definitions/products.ts', replace("  name: 'products',", "  name: 'wares',\n  renamedFrom: 'products',"));
    // The visits' products refer to the collection by its name: they follow it.
    editFile(root, 'definitions/visits.ts', replace("field.reference('products')", "field.reference('wares')"));
    const written = migrate(root, databaseUrl, 'new', 'rename-and-convert');
    expect(written.status, written.output).toBe(0);
    expect(written.output).toContain('collection table products is renamed wares; its rows move');
    expect(written.output).toContain('field wares.title is renamed name; its values move');
    expect(written.output).toContain('wares.code changes from string to integer; a row whose value does not convert stops the migration');
    expect(migrate(root, databaseUrl, 'status').output).toMatch(new RegExp(`^pending {2}${numbered(2, 'rename-and-convert')}$`, 'm'));
    const sql = migrate(root, databaseUrl, '--dry-run').output;
    expect(sql).toContain(`-- ${numbered(2, 'rename-and-convert')}`);
    expect(sql).toContain('ALTER TABLE "products" RENAME TO "wares";');
    expect(sql).toContain('ALTER TABLE "wares" RENAME COLUMN "title" TO "name";');
    served = await serveProject(root, databaseUrl);
    const mug = (await get('/v1/wares/blue-mug')).body;
    expect(mug).toMatchObject({ sku: 'blue-mug', name: 'Blue mug', price: 4.5, code: 100, stock: 7 });
    expect(mug).not.toHaveProperty('title');
    expect((await get('/v1/wares/red-cup')).body).toMatchObject({ name: 'Red cup', code: 250, stock: 12 });
    expect((await get('/v1/wares?code=250')).body.map((ware) => ware.sku)).toEqual(['red-cup']);
    expect((await get('/services/v1/search?q=mug&category=wares')).body.map((ware) => ware.sku)).toEqual(['blue-mug']);
    expect(migrate(root, databaseUrl, 'status').output).toMatch(new RegExp(`^applied {2}${numbered(2, 'rename-and-convert')}`, 'm'));
  });

  it('converts integer to string, and removes a field only with --accept-data-loss, which the file says', { timeout: 180_000 }, async () => {
    await served.stop();
    editFile(root, 'definitions/products.ts', replace('stock: field.integer({ default: 7, filterable: true })', "stock: field.string({ default: '7', filterable: true })"));
    editFile(root, 'definitions/products.ts', replace('    code: field.integer({ default: 100, filterable: true }),\n', ''));
    const refused = migrate(root, databaseUrl, 'new', 'drop-code');
    expect(refused.status).toBe(1);
    expect(refused.output).toMatch(/definitions\/products\.ts:\d+:\d+ error migration-missing field wares\.code is no longer declared; removing it loses the values of wares\.code in every row .*--accept-data-loss/);
    expect(refused.output).toContain('nothing written');
    const written = migrate(root, databaseUrl, 'new', 'drop-code', '--accept-data-loss');
    expect(written.status, written.output).toBe(0);
    expect(readFileSync(join(root, `migrations/${numbered(3, 'drop-code')}.json`), 'utf8')).toContain('LOSES DATA: field wares.code is no longer declared');
    served = await serveProject(root, databaseUrl);
    const mug = (await get('/v1/wares/blue-mug')).body;
    expect(mug).toMatchObject({ sku: 'blue-mug', name: 'Blue mug', stock: '7' });
    expect(mug).not.toHaveProperty('code');
    expect((await get('/v1/wares?stock=12')).body.map((ware) => ware.sku)).toEqual(['red-cup']);
    expect((await send('PUT', '/v1/wares/green-bowl', { name: 'Green bowl', stock: 'plenty' })).status).toBe(201);
  });

  it('adds a unique index: a duplicate is then refused with 409', { timeout: 180_000 }, async () => {
    await step('unique-name', { 'products.ts': replace("    name: field.string({ renamedFrom: 'title',", "    name: field.string({ renamedFrom: 'title', unique: true,") });
    expect((await send('PUT', '/v1/wares/blue-plate', { name: 'Blue mug' })).status).toBe(409);
    expect((await get('/v1/wares/blue-mug')).body).toMatchObject({ name: 'Blue mug', stock: '7' });
  });

  it('makes a field sortable: the migration makes its (column, key) index, and lists sort by it', { timeout: 180_000 }, async () => {
    await served.stop();
    editFile(root, 'definitions/products.ts', replace('    price: field.number({ min: 0 }),', '    price: field.number({ min: 0, sortable: true }),'));
    const written = migrate(root, databaseUrl, 'new', 'sortable-price');
    expect(written.status, written.output).toBe(0);
    expect(written.output).toContain('the index of wares.price changes from none to sorted');
    expect(migrate(root, databaseUrl, '--dry-run').output).toMatch(/CREATE INDEX IF NOT EXISTS "wares__price__sorted" ON "wares" \("price"( COLLATE "C")?( ASC NULLS FIRST)?, "sku"( COLLATE "C")?\);/);
    served = await serveProject(root, databaseUrl);
    expect((await get('/v1/wares?sort=-price')).body.map((ware) => ware.sku)).toEqual(['blue-mug', 'red-cup', 'green-bowl']);
  });
});
