import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  editManifest,
  mustRun,
  newNpmProject,
  packToolkit,
  PACKAGES,
  runIn,
  userEnvironment,
  type PackageName,
} from '../support/packed-toolkit.ts';
import { REPOSITORY, spawnListening, type SpawnedServer } from '../support/spawn-server.ts';
import { until } from '../support/poll.ts';
import { nodeFromRegistry } from '../support/registry-node.ts';

/**
 * The toolkit as users get it: `npm pack`ed tarballs installed into projects in temporary folders,
 * outside this repository, with nothing resolving into its sources.
 */

const BOOKS = `import { collection, field } from '@convapi/dsl';

/** Books: a second collection, declared after init, with a reference to a note. */
export default collection({
  name: 'books',
  identifier: { name: 'book_id', type: 'integer' },
  fields: {
    title: field.string({ required: true, minLength: 1, filterable: true }),
    isbn: field.string({ unique: true }),
    note: field.reference('notes'),
  },
  versions: { v1: {} },
});
`;

const SHELVES = `import { caller, collection, field } from '@convapi/dsl';

/** Shelves: each client sees only its own (row access, compiled into the SQL of every read). */
export default collection({
  name: 'shelves',
  identifier: { name: 'shelf_id', type: 'integer' },
  fields: {
    owner: field.string({ required: true }),
    label: field.string({ required: true, filterable: true }),
  },
  rows: { see: { field: 'owner', equals: caller.client } },
  versions: { v1: {} },
});
`;

/** A job queue: its list is one more statement node:sqlite binds differently across Node versions. */
const WORK = `import { z } from 'zod';
import { job, jobQueue } from '@convapi/dsl';

export default jobQueue({
  name: 'work',
  versions: { v1: {} },
  jobs: { tidy: job({ payload: z.object({}).strict(), run: () => ({ tidied: true }) }) },
});
`;

const CRATES = `import { caller, collection, field, unprocessable } from '@convapi/dsl';

/**
 * Crates: each the user's own (a row rule on the caller's user), created only with crates:write; a
 * label "forbidden" is refused on create (a rule), and label_key is computed by the server (read-only).
 */
export default collection({
  name: 'crates',
  identifier: { name: 'crate_id', type: 'integer' },
  fields: {
    owner: field.string({ required: true, minLength: 1 }),
    label: field.string({ required: true, minLength: 1 }),
    label_key: field.string({ readOnly: true }),
  },
  rows: { see: { field: 'owner', equals: caller.user } },
  scopes: { POST: ['crates:write'] },
  compute: { label_key: (row) => row.label?.toLowerCase() },
  rules: {
    *create({ next, data }) {
      if (next.label === 'forbidden') throw unprocessable('label_forbidden', 'no crate may be labelled forbidden', { field: 'label' });
      // data.of by name, typed by the generated collection rows: label is a string here.
      const { total } = yield* data.of('crates').list({ where: { label: next.label } });
      if (total > 0) throw unprocessable('label_taken', 'you have a crate labelled so already', { field: 'label' });
    },
  },
  versions: { v1: {} },
});
`;

let tarballs: Record<PackageName, string>;
const servers: SpawnedServer[] = [];

beforeAll(async () => {
  ({ tarballs } = await packToolkit());
}, 300_000);

afterAll(() => {
  for (const server of servers) stop(server);
});

/** Stops a server and everything it started (`npm start` runs node under a shell). */
function stop(server: SpawnedServer): void {
  try {
    process.kill(-server.child.pid!, 'SIGKILL');
  } catch {
    server.child.kill('SIGKILL');
  }
}

async function serve(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<SpawnedServer> {
  const server = await spawnListening(command, args, {
    cwd,
    env: userEnvironment({ PORT: '0', ...env }),
    detached: true,
  });
  servers.push(server);
  return server;
}

function call(url: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(url, { ...init, headers: { 'User-Agent': 'packages-test', ...init.headers } });
}

describe('each tarball', () => {
  // The runtime's one file beside them: the launcher `npm start` runs the server through (with-allocator.sh).
  it.each(PACKAGES)('%s holds only its dist/, README.md, LICENSE and package.json (and the start launcher)', (name) => {
    const files = execFileSync('tar', ['tzf', tarballs[name]], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((path) => path.replace(/^package\//, ''));
    const launcher = name === '@convapi/runtime' ? ['bin/with-allocator.sh'] : [];
    expect(files.filter((path) => !path.startsWith('dist/')).sort()).toEqual([
      'LICENSE',
      'README.md',
      ...launcher,
      'package.json',
    ]);
    expect(files.filter((path) => path.startsWith('dist/') && !/\.(js|d\.ts)$/.test(path))).toEqual([]);
    expect(files).toContain('dist/index.js'.replace('index', name === '@convapi/cli' ? 'cli/convapi' : 'index'));
  });
});

describe('a new project: init, a second collection, generate, lint, tsc, start', () => {
  let project: string;

  it('serves 201 for a POST and 200 with ETag for a GET, with a token issued by the installed CLI', async () => {
    project = await newNpmProject('convapi-user-project-');
    await mustRun(project, 'npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      tarballs['@convapi/dsl'],
      tarballs['@convapi/runtime'],
      tarballs['@convapi/cli'],
      'koa',
    ]);
    const init = await mustRun(project, 'npx', ['--no-install', 'convapi', 'init']);
    expect(init.stdout).toContain('wrote definitions/notes.ts');
    // What init added (typescript, the Node 24 pin, @types/node) comes from the registry.
    await mustRun(project, 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error']);
    writeFileSync(join(project, 'definitions', 'books.ts'), BOOKS);
    writeFileSync(join(project, 'definitions', 'shelves.ts'), SHELVES);
    writeFileSync(join(project, 'definitions', 'crates.ts'), CRATES);
    writeFileSync(join(project, 'definitions', 'work.ts'), WORK);

    const generated = await mustRun(project, 'npm', ['run', 'generate']);
    expect(generated.stdout).toMatch(/generated \d+ files/);
    for (const file of [
      'generated/resources/v1/books.ts',
      'generated/resources/v1/notes.ts',
      'generated/openapi/v1.json',
    ]) {
      expect(readFileSync(join(project, file), 'utf8').length).toBeGreaterThan(0);
    }
    expect(readFileSync(join(project, 'generated/resources/v1/books.ts'), 'utf8')).toContain("from '@convapi/runtime'");
    expect((await mustRun(project, 'npm', ['run', 'lint:definitions'])).stdout).toContain('definitions: no problems');
    await mustRun(project, 'npx', ['--no-install', 'tsc', '--noEmit']);
    // The project's own test script: type check, drift check, lint.
    await mustRun(project, 'npm', ['test']);

    const database = `sqlite:${join(project, 'app.db')}`;
    const token = (
      await mustRun(
        project,
        'npm',
        ['run', '-s', 'token', '--', 'issue', '--client', 'packages-test'],
        userEnvironment({ DATABASE_URL: database }),
      )
    ).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    const issued = async (...args: string[]) =>
      (
        await mustRun(
          project,
          'npm',
          ['run', '-s', 'token', '--', 'issue', '--client', 'packages-test', ...args],
          userEnvironment({ DATABASE_URL: database }),
        )
      ).stdout
        .trim()
        .split('\n')
        .at(-1)!;
    const ann = await issued('--user', 'ann', '--scope', 'crates:write');
    const annUnscoped = await issued('--user', 'ann');
    const bob = await issued('--user', 'bob', '--scope', 'crates:write');
    const server = await serve('npm', ['start'], project, { DATABASE_URL: database });
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

    const note = await call(`${server.url}/v1/notes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'first' }),
    });
    expect(note.status).toBe(201);
    const created = await call(`${server.url}/v1/books`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Dune', note: `${server.url}/v1/notes/1` }),
    });
    expect(created.status).toBe(201);
    const { uri } = (await created.json()) as { uri: string };
    const read = await call(uri, { headers });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(await read.json()).toMatchObject({ book_id: 1, title: 'Dune', note: `${server.url}/v1/notes/1` });

    // Business rules and access control, as the installed packages serve them.
    const crate = (bearer: string, body: unknown) =>
      call(`${server.url}/v1/crates`, {
        method: 'POST',
        headers: { ...headers, Authorization: `Bearer ${bearer}` },
        body: JSON.stringify(body),
      });
    const errorOf = async (response: Response) => ((await response.json()) as { errors: unknown[] }).errors[0];
    const unscoped = await crate(annUnscoped, { owner: 'ann', label: 'Tools' });
    expect(unscoped.status).toBe(403);
    expect(unscoped.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="crates:write"');
    expect(await errorOf(unscoped)).toMatchObject({ code: 'insufficient_scope' });
    const readOnly = await crate(ann, { owner: 'ann', label: 'Tools', label_key: 'mine' });
    expect(readOnly.status).toBe(400);
    expect(await errorOf(readOnly)).toMatchObject({ code: 'read_only_field', field: 'label_key' });
    const ruled = await crate(ann, { owner: 'ann', label: 'forbidden' });
    expect(ruled.status).toBe(422);
    expect(await errorOf(ruled)).toMatchObject({ code: 'label_forbidden', field: 'label', resource: 'crates' });
    const made = await crate(ann, { owner: 'ann', label: 'Tools' });
    expect(made.status).toBe(201);
    const crateUri = ((await made.json()) as { uri: string }).uri;
    const mine = await call(crateUri, { headers: { Authorization: `Bearer ${ann}` } });
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ owner: 'ann', label: 'Tools', label_key: 'tools' });
    expect((await crate(ann, { owner: 'ann', label: 'Tools' })).status).toBe(422);
    // Bob's view of Ann's crate: exactly a missing one.
    const hidden = await call(crateUri, { headers: { Authorization: `Bearer ${bob}` } });
    const missing = await call(`${server.url}/v1/crates/999`, { headers: { Authorization: `Bearer ${bob}` } });
    expect([hidden.status, missing.status]).toEqual([404, 404]);
    expect((await hidden.text()).replace(/\b1\b/g, 'ID')).toBe((await missing.text()).replace(/\b999\b/g, 'ID'));
    // The start script init wrote hands SIGTERM sent to npm on to the server: a graceful stop, exit 0.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 600_000);

  it('changes its data with the documented commands: the first migration, then add, rename and a type change, the rows read back each time', async () => {
    expect(project, 'the project of the test before').toBeDefined();
    const database = `sqlite:${join(project, 'app-changes.db')}`;
    const migrate = async (name: string) =>
      (await mustRun(project, 'npm', ['run', '-s', 'convapi', '--', 'migrate', 'new', name])).stdout;
    const editBooks = (edit: (text: string) => string) =>
      writeFileSync(
        join(project, 'definitions/books.ts'),
        edit(readFileSync(join(project, 'definitions/books.ts'), 'utf8')),
      );
    const token = (
      await mustRun(
        project,
        'npm',
        ['run', '-s', 'token', '--', 'issue', '--client', 'changes'],
        userEnvironment({ DATABASE_URL: database }),
      )
    ).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    /** Starts the project as `npm start` does, runs `use` with its URL, and stops it gracefully. */
    const withServer = async <T>(use: (url: string) => Promise<T>): Promise<T> => {
      const server = await serve('npm', ['start'], project, { DATABASE_URL: database });
      try {
        return await use(server.url);
      } finally {
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      }
    };
    const bookOne = (url: string) =>
      call(`${url}/v1/books/1`, { headers }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as Record<string, unknown>,
      }));

    expect(await migrate('initial')).toMatch(/^wrote migrations\/0001_initial\.json/m);
    await withServer(async (url) => {
      expect(
        (await call(`${url}/v1/books`, { method: 'POST', headers, body: JSON.stringify({ title: 'Dune' }) })).status,
      ).toBe(201);
    });

    // Add a field with a default: the row stored before holds it.
    editBooks((text) =>
      text.replace(
        "    note: field.reference('notes'),",
        "    note: field.reference('notes'),\n    edition: field.string({ default: '1' }),",
      ),
    );
    expect(await migrate('add-edition')).toMatch(/^wrote migrations\/0002_add-edition\.json/m);
    await withServer(async (url) => {
      expect(await bookOne(url)).toMatchObject({ status: 200, body: { title: 'Dune', edition: '1' } });
      expect(
        (await call(`${url}/v1/books/1`, { method: 'PATCH', headers, body: JSON.stringify({ edition: '2' }) })).status,
      ).toBe(200);
    });

    // Rename it, declared: the value moves.
    editBooks((text) =>
      text.replace(
        "edition: field.string({ default: '1' })",
        "printing: field.string({ renamedFrom: 'edition', default: '1' })",
      ),
    );
    expect(await migrate('rename-edition')).toMatch(/^wrote migrations\/0003_rename-edition\.json/m);
    await withServer(async (url) => {
      const { body } = await bookOne(url);
      expect(body).toMatchObject({ title: 'Dune', printing: '2' });
      expect(body).not.toHaveProperty('edition');
    });

    // Change its type: the stored text becomes a number.
    editBooks((text) =>
      text.replace(
        "printing: field.string({ renamedFrom: 'edition', default: '1' })",
        "printing: field.integer({ renamedFrom: 'edition', default: 1 })",
      ),
    );
    expect(await migrate('printing-to-integer')).toMatch(/^wrote migrations\/0004_printing-to-integer\.json/m);
    await withServer(async (url) => {
      expect(await bookOne(url)).toMatchObject({ status: 200, body: { title: 'Dune', printing: 2 } });
    });

    const status = (
      await mustRun(
        project,
        'npm',
        ['run', '-s', 'convapi', '--', 'migrate', 'status'],
        userEnvironment({ DATABASE_URL: database }),
      )
    ).stdout;
    for (const name of ['0001_initial', '0002_add-edition', '0003_rename-edition', '0004_printing-to-integer'])
      expect(status).toContain(name);
    // The project's own checks hold after the changes: type check, drift check, lint.
    await mustRun(project, 'npm', ['test']);
  }, 600_000);

  it('runs on the oldest Node its engines accept: a create, a read, a list, a filter, a unique write, row access', async () => {
    expect(project, 'the project of the test before').toBeDefined();
    const engines = (
      JSON.parse(readFileSync(join(REPOSITORY, 'runtime/package.json'), 'utf8')) as { engines: { node: string } }
    ).engines.node;
    const oldest = /^>=(\d+)\.(\d+)$/.exec(engines);
    expect(oldest, engines).not.toBeNull();
    const version = `${oldest![1]}.${oldest![2]}.0`;
    const node = await nodeFromRegistry(version);
    expect((await mustRun(project, node, ['--version'])).stdout.trim()).toBe(`v${version}`);

    await mustRun(project, node, ['node_modules/@convapi/cli/dist/cli/convapi.js', 'generate', '--check']);
    const database = `sqlite:${join(project, 'app-oldest.db')}`;
    const token = (
      await mustRun(
        project,
        node,
        ['node_modules/@convapi/runtime/dist/cli/token-bin.js', 'issue', '--client', 'oldest'],
        userEnvironment({ DATABASE_URL: database }),
      )
    ).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    const server = await serve(node, ['--import', '@convapi/runtime/node-check', 'generated/main.ts'], project, {
      DATABASE_URL: database,
    });
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    expect(
      (
        await call(`${server.url}/v1/notes`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ title: 'on the oldest Node' }),
        })
      ).status,
    ).toBe(201);
    const read = await call(`${server.url}/v1/notes/1`, { headers });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).not.toBeNull();
    // A list, a filter and a unique field: the statements node:sqlite binds differently across versions.
    const book = (title: string, isbn: string) =>
      call(`${server.url}/v1/books`, { method: 'POST', headers, body: JSON.stringify({ title, isbn }) });
    expect((await book('Dune', '978-0441013593')).status).toBe(201);
    expect((await book('Emma', '978-0141439587')).status).toBe(201);
    const duplicate = await book('Dune again', '978-0441013593');
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toMatchObject({ errors: [{ code: 'duplicate_value', field: 'isbn' }] });
    const list = await call(`${server.url}/v1/books`, { headers });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('2');
    expect(((await list.json()) as Array<{ title: string }>).map((entry) => entry.title)).toEqual(['Dune', 'Emma']);
    const filtered = await call(`${server.url}/v1/books?title=Emma`, { headers });
    expect(filtered.status).toBe(200);
    expect(filtered.headers.get('x-total-count')).toBe('1');
    expect(((await filtered.json()) as Array<{ isbn: string }>).map((entry) => entry.isbn)).toEqual(['978-0141439587']);
    const pastTheEnd = await call(`${server.url}/v1/books?title=Emma&offset=5`, { headers });
    expect([pastTheEnd.status, pastTheEnd.headers.get('x-total-count'), await pastTheEnd.json()]).toEqual([
      200,
      '1',
      [],
    ]);
    // Row access: the caller's condition joins the statements' parameters.
    const other = (
      await mustRun(
        project,
        node,
        ['node_modules/@convapi/runtime/dist/cli/token-bin.js', 'issue', '--client', 'other'],
        userEnvironment({ DATABASE_URL: database }),
      )
    ).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    const shelf = (bearer: string, owner: string) =>
      call(`${server.url}/v1/shelves`, {
        method: 'POST',
        headers: { ...headers, Authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ owner, label: 'top' }),
      });
    expect((await shelf(other, 'other')).status).toBe(201);
    expect((await shelf(token, 'oldest')).status).toBe(201);
    const own = await call(`${server.url}/v1/shelves?label=top`, { headers });
    expect([own.status, own.headers.get('x-total-count')]).toEqual([200, '1']);
    expect(((await own.json()) as Array<{ owner: string }>).map((entry) => entry.owner)).toEqual(['oldest']);
    expect((await call(`${server.url}/v1/shelves/2`, { headers })).status).toBe(200);
    expect((await call(`${server.url}/v1/shelves/1`, { headers })).status).toBe(404);
    // A job queue's list: the caller's own jobs, filtered by state and type or not.
    expect(
      (await call(`${server.url}/services/v1/work`, { method: 'PUT', headers, body: JSON.stringify({ type: 'tidy' }) }))
        .status,
    ).toBe(202);
    for (const query of ['', '?type=tidy', '?state=queued&type=tidy&limit=5']) {
      const jobs = await call(`${server.url}/services/v1/work${query}`, { headers });
      expect([query, jobs.status]).toEqual([query, 200]);
    }
    stop(server);
  }, 300_000);

  it('on Node 20, each command says in one line which Node it needs', async () => {
    expect(project, 'the project of the test before').toBeDefined();
    const node = await nodeFromRegistry('20');
    const commands = [
      ['node_modules/@convapi/cli/dist/cli/convapi.js', 'init'],
      ['node_modules/@convapi/runtime/dist/cli/token-bin.js', 'issue', '--client', 'old'],
      // The start script init writes, with this Node.
      ['--import', '@convapi/runtime/node-check', 'generated/main.ts'],
    ];
    for (const args of commands) {
      const result = await runIn(project, node, args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toEqual([
        expect.stringMatching(/^convapi needs Node >=\d+\.\d+ \(this is Node v20\.\d+\.\d+\)/),
      ]);
    }
  }, 300_000);

  it('after a production install (npm ci --omit=dev), npm start serves on the pinned Node even where the machine has Node 20', async () => {
    expect(project, 'the project of the tests before').toBeDefined();
    await mustRun(project, 'npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error']);
    expect(existsSync(join(project, 'node_modules/node/package.json')), 'the Node pin').toBe(true);
    const machine = dirname(await nodeFromRegistry('20'));
    const database = `sqlite:${join(project, 'app-production.db')}`;
    const token = (
      await mustRun(
        project,
        'npm',
        ['run', '-s', 'token', '--', 'issue', '--client', 'production'],
        userEnvironment({ DATABASE_URL: database }),
      )
    ).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    const server = await serve('npm', ['start'], project, {
      DATABASE_URL: database,
      PATH: `${machine}:${process.env.PATH ?? ''}`,
    });
    const listed = await call(`${server.url}/v1/notes`, { headers: { Authorization: `Bearer ${token}` } });
    expect(listed.status).toBe(200);
    expect(server.output.join('\n')).toMatch(/"node":"v24\./);
    stop(server);
  }, 300_000);
});

describe("a plain Koa app with the runtime package, mounting the runtime API page's middleware stack verbatim", () => {
  it('answers 400 missing_user_agent, 400 token_in_url, 401, 200 with ETag, 304, and 429 with the rate-limit headers', async () => {
    const app = await newNpmProject('convapi-koa-app-');
    editManifest(app, (manifest) => {
      manifest.type = 'module';
    });
    await mustRun(app, 'npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      tarballs['@convapi/runtime'],
      'koa',
      'typescript@~5.9.3',
      '@types/node@^24',
    ]);
    writeFileSync(join(app, 'app.ts'), runtimeApiMiddlewareStack());
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2024',
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          verbatimModuleSyntax: true,
          types: ['node'],
        },
        include: ['app.ts'],
      }),
    );
    await mustRun(app, 'npx', ['--no-install', 'tsc', '--noEmit']);

    const token = (
      await mustRun(
        app,
        'npx',
        ['--no-install', 'convapi-token', 'issue', '--client', 'koa-app'],
        userEnvironment({ DATABASE_URL: 'sqlite:app.db' }),
      )
    ).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    const server = await serve(process.execPath, ['app.ts'], app);
    const auth = { Authorization: `Bearer ${token}` };

    const noAgent = await fetch(`${server.url}/?q=1`, { headers: { 'User-Agent': '' } });
    expect(noAgent.status).toBe(400);
    expect(await noAgent.json()).toMatchObject({ errors: [{ code: 'missing_user_agent' }] });

    const inUrl = await call(`${server.url}/?q=1&access_token=${token}`);
    expect(inUrl.status).toBe(400);
    expect(await inUrl.json()).toMatchObject({ errors: [{ code: 'token_in_url' }] });

    const anonymous = await call(`${server.url}/?q=1`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);

    const hello = await call(`${server.url}/?q=hi`, { headers: auth });
    expect(hello.status).toBe(200);
    expect(await hello.json()).toEqual({ hello: 'hi' });
    // The request log: X-Request-Id on the response, and the request's JSON line with it, its status and client.
    const requestId = hello.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const logged = async () =>
      server.output
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.request_id === requestId);
    expect(await until(logged, (line) => line !== undefined, 2000)).toMatchObject({
      msg: 'request',
      method: 'GET',
      path: '/',
      query: 'q=hi',
      status: 200,
      client: 'koa-app',
    });
    expect(server.output.join('\n')).not.toContain(token);
    const etag = hello.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(hello.headers.get('x-ratelimit-limit')).toBe('100');

    const again = await call(`${server.url}/?q=hi`, { headers: { ...auth, 'If-None-Match': etag! } });
    expect(again.status).toBe(304);

    let limited: Response | undefined;
    for (let sent = 0; sent < 150 && limited === undefined; sent += 1) {
      const response = await call(`${server.url}/?q=hi`, { headers: auth });
      if (response.status === 429) limited = response;
      else await response.arrayBuffer();
    }
    expect(limited?.status).toBe(429);
    expect(limited!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(limited!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(await limited!.json()).toMatchObject({ errors: [{ code: 'rate_limit_exceeded' }] });
    stop(server);
  }, 300_000);
});

/** The first TypeScript block of docs/runtime-api.md, "Using the runtime without the generator". */
function runtimeApiMiddlewareStack(): string {
  const page = readFileSync(join(REPOSITORY, 'docs', 'runtime-api.md'), 'utf8');
  const section = page.slice(page.indexOf('# Using the runtime without the generator'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (block === null) throw new Error('docs/runtime-api.md has no ts block');
  return block[1]!;
}
