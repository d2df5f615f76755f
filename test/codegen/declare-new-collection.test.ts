import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServer } from '../support/spawn-server.ts';
import { copyProject, editFile, generateIn, migrateNew } from '../support/temp-project.ts';
import { issueToken } from '../support/token-cli.ts';

const BOOKS = `import { collection, field } from '@convapi/dsl';

/** Books: a plural name, a server-assigned integer id, a required title, an optional order. */
export default collection({
  name: 'books',
  identifier: { name: 'book_id', type: 'integer' },
  fields: {
    title: field.string({ required: true, minLength: 1, filterable: true, searchable: true }),
    order: field.reference('orders'),
  },
  versions: { v1: {}, v2: {} },
});
`;

describe('declaring a new collection, as docs/dsl.md walks a user through it', () => {
  it('one file in definitions/, npm run generate, then call it; a field added later keeps old rows readable', async () => {
    const root = copyProject();
    writeFileSync(join(root, 'definitions/books.ts'), BOOKS);
    const generated = generateIn(root);
    expect(generated.status, generated.output).toBe(0);
    expect(generated.output).toMatch(/generated \d+ files/);
    const migrated = migrateNew(root, 'add-books');
    expect(migrated.status, migrated.output).toBe(0);
    expect(migrated.output).toMatch(/^wrote migrations\/\d{4}_add-books\.json/);

    // The default data/app.db, named absolutely for the CLI run from elsewhere: an explicit path's folder must exist.
    mkdirSync(join(root, 'data'));
    const databaseUrl = `sqlite:${join(root, 'data/app.db')}`;
    const headers = {
      'User-Agent': 'readme-example',
      Authorization: `Bearer ${issueToken(databaseUrl, 'readme')}`,
      'Content-Type': 'application/json',
    };
    let server = await spawnServer({ DATABASE_URL: databaseUrl }, 'generated/main.ts', root);
    const created = await fetch(`${server.url}/v1/books`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Dune' }),
    });
    expect(created.status).toBe(201);
    const { uri } = (await created.json()) as { uri: string };
    expect(await (await fetch(uri, { headers })).json()).toMatchObject({ book_id: 1, title: 'Dune' });
    expect(((await (await fetch(`${server.url}/v2/books?title=Dune`, { headers })).json()) as unknown[]).length).toBe(
      1,
    );
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // Later: a new field, regenerate, restart: the old row is still there, and the new field works.
    editFile(root, 'definitions/books.ts', (text) =>
      text.replace(
        "    order: field.reference('orders'),",
        "    order: field.reference('orders'),\n    pages: field.integer({ min: 1 }),",
      ),
    );
    const addPages = migrateNew(root, 'add-pages');
    expect(addPages.status, addPages.output).toBe(0);
    server = await spawnServer({ DATABASE_URL: databaseUrl }, 'generated/main.ts', root);
    expect(await (await fetch(`${server.url}/v1/books/1`, { headers })).json()).toMatchObject({
      book_id: 1,
      title: 'Dune',
    });
    const patched = await fetch(`${server.url}/v1/books/1`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ pages: 412 }),
    });
    expect(await patched.json()).toMatchObject({ title: 'Dune', pages: 412 });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // Two cold generations (each type-checks the definitions and writes the typed client) and two
    // server starts: more than the suite's default 30 s on a busy 2-core machine.
  }, 120_000);
});
