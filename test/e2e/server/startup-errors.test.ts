import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../support/free-port.ts';
import { REPOSITORY, SOURCE_CONDITION } from '../../support/spawn-server.ts';
import { tokenCli } from '../../support/token-cli.ts';
import { newTestDatabase, postgresServerUrl, testEngine } from '../../support/test-database.ts';

/** `npm start` as its own process with an environment; waits for it to end (at most 15 s). */
function start(env: Record<string, string>) {
  const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
  const began = Date.now();
  const result = spawnSync(process.execPath, [...SOURCE_CONDITION, 'generated/main.ts'], {
    cwd: REPOSITORY,
    env: { ...inherited, PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 15_000,
  });
  const lines = `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => line.trim() !== '');
  return { status: result.status, stdout: result.stdout, lines, ms: Date.now() - began };
}

/** A line's message: the line itself, or its `msg` when it is a JSON log line (LOG_FORMAT=json, the default). */
function messageOf(line: string): string {
  if (!line.startsWith('{')) return line;
  const parsed = JSON.parse(line) as { msg?: unknown; err?: { stack?: string } };
  expect(parsed.err?.stack).toBeUndefined();
  return String(parsed.msg);
}

/** One clear line on stderr, exit 1, within a few seconds, no stack trace, nothing listening. */
function expectOneLineRefusal(outcome: ReturnType<typeof start>, pattern: RegExp): void {
  expect(outcome.status).toBe(1);
  expect(outcome.lines).toHaveLength(1);
  expect(messageOf(outcome.lines[0]!)).toMatch(pattern);
  expect(outcome.lines[0]).not.toMatch(/\bat .*:\d+:\d+/);
  expect(outcome.stdout).not.toContain('listening on');
  expect(outcome.ms).toBeLessThan(8000);
}

describe('start-up errors: one line, exit 1, within seconds', () => {
  it('an unreachable PostgreSQL', async () => {
    const port = await freePort();
    expectOneLineRefusal(
      start({ DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/app` }),
      new RegExp(`^cannot start: cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port}: connection refused`),
    );
  });

  it('an unreachable Redis', async () => {
    const port = await freePort();
    expectOneLineRefusal(
      start({ DATABASE_URL: await newTestDatabase(), REDIS_URL: `redis://127.0.0.1:${port}` }),
      new RegExp(`^cannot start: cannot reach Redis at 127\\.0\\.0\\.1:${port}: connection refused`),
    );
  });

  it('a DATABASE_URL that is not understood, and a malformed REDIS_URL', () => {
    expectOneLineRefusal(
      start({ DATABASE_URL: 'mysql://x@y/z' }),
      /^cannot start: DATABASE_URL "mysql:\/\/x@y\/z" is not understood/,
    );
    expectOneLineRefusal(
      start({ DATABASE_URL: 'sqlite::memory:', REDIS_URL: 'localhost:6379' }),
      /^cannot start: REDIS_URL "localhost:6379" is not understood/,
    );
  });

  it.runIf(testEngine() === 'postgres')('wrong PostgreSQL credentials', () => {
    const url = new URL(postgresServerUrl());
    url.password = 'not-the-password';
    expectOneLineRefusal(
      start({ DATABASE_URL: url.toString() }),
      /^cannot start: PostgreSQL at 127\.0\.0\.1:\d+ refused the credentials of user "postgres"/,
    );
  });

  it.runIf(testEngine() === 'postgres')('a missing PostgreSQL database', () => {
    const url = new URL(postgresServerUrl());
    url.pathname = '/no_such_database';
    expectOneLineRefusal(
      start({ DATABASE_URL: url.toString() }),
      /^cannot start: PostgreSQL at 127\.0\.0\.1:\d+ has no database "no_such_database"/,
    );
  });

  it('the token CLI on an unreachable database: one line, exit 1', async () => {
    const port = await freePort();
    const result = tokenCli(`postgres://app:secret@127.0.0.1:${port}/app`, 'issue', '--client', 'x');
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^token: cannot reach PostgreSQL at 127\.0\.0\.1:\d+: connection refused/),
    ]);
  });
});
