import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPOSITORY, SOURCE_CONDITION } from '../support/spawn-server.ts';
import { CLI } from '../support/temp-project.ts';

/** Every command of the toolkit, as its npm script (or the convapi bin) runs it: name → the arguments before the command's own. */
const CLIS: [string, string[]][] = [
  ['lint', [CLI, 'lint']],
  ['generate', [CLI, 'generate']],
  ['init', [CLI, 'init']],
  ['token', [CLI, 'token']],
  ['bench', ['bench/run.ts']],
];

const runCli = (command: readonly string[], ...args: string[]) =>
  spawnSync(process.execPath, [...SOURCE_CONDITION, ...command, ...args], {
    cwd: REPOSITORY,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: 'sqlite::memory:' },
  });

describe.each(CLIS)('%s', (name, command) => {
  it('answers --help with its usage, exit 0', () => {
    const result = runCli(command, '--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage:/);
    expect(result.stderr).toBe('');
  });

  it.each([
    ['an unknown option', ['--frobnicate'], `${name}: unknown option '--frobnicate'`],
    [
      'an option missing its value',
      name === 'token'
        ? ['issue', '--client']
        : name === 'bench'
          ? ['--only']
          : name === 'init'
            ? ['--dir']
            : ['--root'],
      /^\w+: option '--\w+ <value>' argument missing$/,
    ],
  ])('%s: one line naming it, then the usage, exit 2, no stack trace', (_case, args, first) => {
    const result = runCli(command, ...args);
    expect(result.status).toBe(2);
    const [line, ...rest] = result.stderr.trimEnd().split('\n');
    if (typeof first === 'string') expect(line).toBe(first);
    else expect(line).toMatch(first);
    expect(rest[0]).toMatch(/^usage:/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain('ERR_PARSE_ARGS');
  });
});

describe('lint and generate options that used to print a stack trace', () => {
  it.each([
    [
      'lint --format xml',
      ['lint', '--format', 'xml'],
      "lint: unknown format 'xml'; choose text, json, sarif or github",
    ],
    ['generate --format json', ['generate', '--format', 'json'], "generate: unknown option '--format'"],
    ['lint --watch', ['lint', '--watch'], "lint: unknown option '--watch'"],
  ])('%s', (_name, args, line) => {
    const result = runCli([CLI], ...args);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(line);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('lint --root of a folder without definitions/: one line, exit 2', () => {
    const result = runCli([CLI, 'lint'], '--root', '/nonexistent-project');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'lint: /nonexistent-project/definitions: no definitions/ folder here; run in the project root or pass --root DIR\n',
    );
  });
});
