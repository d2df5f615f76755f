import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logLines, spawnNpmStart, spawnServer } from '../../support/spawn-server.ts';
import { copyProject } from '../../support/temp-project.ts';
import { tokenCli } from '../../support/token-cli.ts';

const caller = { 'User-Agent': 'database-url-test' };

describe('DATABASE_URL=sqlite::memory:', () => {
  it("`npm start -- --issue-token NAME` prints a token of the server's own store, which then works", async () => {
    const server = await spawnNpmStart({ DATABASE_URL: 'sqlite::memory:' }, { args: ['--issue-token', 'demo'] });
    try {
      const line = server.output.find((text) => text.startsWith('issued a token for client demo: '));
      expect(line).toBeDefined();
      const token = line!.slice('issued a token for client demo: '.length);
      const response = await fetch(new URL('/v1/orders', server.url), {
        headers: { ...caller, Authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      // Printed once for the operator; never in a log line.
      expect(server.output.filter((text) => text.startsWith('{') && text.includes(token))).toEqual([]);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });

  it('without --issue-token the server warns at start that no token can be issued for it', async () => {
    const server = await spawnServer({ DATABASE_URL: 'sqlite::memory:' });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(
      server.output.some((text) => text.includes('"level":"warn"') && text.includes('npm start -- --issue-token NAME')),
    ).toBe(true);
  });

  it('the token CLI refuses it with a clear line instead of issuing a token no server will know', () => {
    const { status, stderr, lines } = tokenCli('sqlite::memory:', 'issue', '--client', 'lost');
    expect(status).toBe(2);
    expect(stderr).toContain(
      'DATABASE_URL=sqlite::memory: lives inside the server process, out of reach of this command: start the server with `npm start -- --issue-token NAME`',
    );
    expect(lines.filter((line) => line !== '')).toEqual([]);
  });

  it('an unknown start argument is refused', async () => {
    await expect(
      spawnServer({ DATABASE_URL: 'sqlite::memory:' }, 'generated/main.ts', undefined, ['--issue-tokens', 'x']),
    ).rejects.toThrow(/exited with 1[\s\S]*cannot start: Unknown option '--issue-tokens'/);
  });
});

describe('a database file whose folder does not exist', () => {
  const missing = () => join(mkdtempSync(join(tmpdir(), 'db-folder-')), 'no', 'such', 'dir');

  it('is refused by the server with a clear line, and the folder is not created', async () => {
    const folder = missing();
    await expect(spawnServer({ DATABASE_URL: `sqlite:${join(folder, 'app.db')}` })).rejects.toThrow(
      new RegExp(
        `exited with 1[\\s\\S]*cannot start: the folder of the database file ${join(folder, 'app.db')} \\(${folder}\\) does not exist; create it, or correct DATABASE_URL`,
      ),
    );
    expect(existsSync(folder)).toBe(false);
  });

  it('is refused by the token CLI, and the folder is not created', () => {
    const folder = missing();
    const { status, stderr } = tokenCli(`sqlite:${join(folder, 'app.db')}`, 'issue', '--client', 'nowhere');
    expect(status).toBe(1);
    expect(stderr).toContain(`the folder of the database file ${join(folder, 'app.db')} (${folder}) does not exist`);
    expect(existsSync(folder)).toBe(false);
  });

  it('except the default data/app.db, whose data/ folder a fresh clone does not have', async () => {
    const root = copyProject();
    expect(existsSync(join(root, 'data'))).toBe(false);
    const server = await spawnServer({ DATABASE_URL: '' }, 'generated/main.ts', root);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(join(root, 'data', 'app.db'))).toBe(true);
    expect(logLines(server, 'server started')[0]).toMatchObject({
      engine: 'sqlite',
      database: 'sqlite:data/app.db',
      versions: ['v1', 'v2'],
    });
  });
});
