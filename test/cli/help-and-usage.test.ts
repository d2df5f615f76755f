import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPOSITORY } from '../support/spawn-server.ts';

/** Every CLI entry file of the toolkit, as its npm script runs it. */
const CLIS: [string, string][] = [
  ['lint', 'codegen/cli/lint.ts'],
  ['generate', 'codegen/cli/generate.ts'],
  ['token', 'runtime/cli/token.ts'],
  ['bench', 'bench/run.ts'],
];

const runCli = (file: string, ...args: string[]) => spawnSync(process.execPath, [file, ...args], { cwd: REPOSITORY, encoding: 'utf8', env: { ...process.env, DATABASE_URL: 'sqlite::memory:' } });

describe.each(CLIS)('%s', (name, file) => {
  it('answers --help with its usage, exit 0', () => {
    const result = runCli(file, '--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage:/);
    expect(result.stderr).toBe('');
  });

  it.each([
    ['an unknown option', ['--frobnicate'], `${name}: unknown option '--frobnicate'`],
    ['an option missing its value', name === 'token' ? ['issue', '--client'] : name === 'bench' ? ['--only'] : ['--root'], /^\w+: option '--\w+ <value>' argument missing$/],
  ])('%s: one line naming it, then the usage, exit 2, no stack trace', (_case, args, first) => {
    const result = runCli(file, ...args);
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
    ['lint --format xml', ['codegen/cli/lint.ts', '--format', 'xml'], "lint: unknown format 'xml'; choose text, json, sarif or github"],
    ['generate --format json', ['codegen/cli/generate.ts', '--format', 'json'], "generate: unknown option '--format'"],
    ['lint --watch', ['codegen/cli/lint.ts', '--watch'], "lint: unknown option '--watch'"],
  ])('%s', (_name, [file, ...args], line) => {
    const result = runCli(file!, ...args);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(line);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('lint --root of a folder without definitions/: one line, exit 2', () => {
    const result = runCli('codegen/cli/lint.ts', '--root', '/nonexistent-project');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('lint: /nonexistent-project/definitions: no definitions/ folder here; run in the project root or pass --root DIR\n');
  });
});
