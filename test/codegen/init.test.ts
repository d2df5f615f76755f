import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY, SOURCE_CONDITION } from '../support/spawn-server.ts';
import { CLI } from '../support/temp-project.ts';

const init = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, 'init', ...args], { cwd, encoding: 'utf8' });
const manifestOf = (root: string) =>
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
const emptyFolder = () => mkdtempSync(join(tmpdir(), 'init-'));

describe('convapi init', () => {
  it('sets up an empty folder: the contract scripts, the packages, the Node 24 pin, a strict tsconfig and one definition', () => {
    const root = emptyFolder();
    const result = init(root);
    expect(result.status, result.stderr).toBe(0);
    const manifest = manifestOf(root);
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.scripts!).sort()).toEqual([
      'convapi',
      'generate',
      'lint:definitions',
      'start',
      'test',
      'token',
    ]);
    // The Node pin is a dependency: a production install keeps it, so `npm start` runs Node 24 there too.
    expect(manifest.dependencies).toMatchObject({
      '@convapi/runtime': expect.stringMatching(/^\^\d/),
      '@convapi/dsl': expect.stringMatching(/^\^\d/),
      koa: expect.any(String),
      node: expect.stringMatching(/^\^24/),
    });
    expect(manifest.devDependencies).toMatchObject({
      '@convapi/cli': expect.any(String),
      typescript: expect.any(String),
    });
    // ts-morph and the generator stay out of a production install.
    expect(Object.keys(manifest.dependencies!)).not.toContain('@convapi/cli');
    expect(JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).compilerOptions.strict).toBe(true);
    expect(readFileSync(join(root, 'definitions/notes.ts'), 'utf8')).toContain("from '@convapi/dsl'");
    expect(result.stdout).toContain('next: npm install && npm run generate && npm start');
  });

  it("its tsconfig type-checks the project's hand-written files too, node_modules aside", () => {
    const root = emptyFolder();
    expect(init(root).status).toBe(0);
    // The project's own packages are not installed here: the example definition is left out, @types/node linked.
    rmSync(join(root, 'definitions/notes.ts'));
    symlinkSync(join(REPOSITORY, 'node_modules'), join(root, 'node_modules'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'server.ts'), "export const port: number = '8080';\n");
    writeFileSync(join(root, 'src/routes.ts'), 'export const path: string = 404;\n');
    writeFileSync(join(root, 'definitions/helpers.ts'), 'export const max: number = true;\n');
    // What `npm test` starts with: tsc --noEmit over the tsconfig init wrote.
    const tsc = spawnSync(process.execPath, [join(REPOSITORY, 'node_modules/typescript/bin/tsc'), '--noEmit'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(tsc.status).toBe(2);
    expect(tsc.stdout.trim().split('\n').sort()).toEqual([
      "definitions/helpers.ts(1,14): error TS2322: Type 'boolean' is not assignable to type 'number'.",
      "server.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/routes.ts(1,14): error TS2322: Type 'number' is not assignable to type 'string'.",
    ]);
  });

  it('adds to an existing npm project, keeping its own fields and the dependencies it already lists', () => {
    const root = emptyFolder();
    const existing = {
      name: 'shop',
      version: '2.0.0',
      type: 'commonjs',
      scripts: { test: 'echo "Error: no test specified" && exit 1', build: 'make' },
      dependencies: { '@convapi/runtime': 'file:../runtime.tgz', lodash: '^4.0.0' },
    };
    writeFileSync(join(root, 'package.json'), JSON.stringify(existing));
    const result = init(root);
    expect(result.status, result.stderr).toBe(0);
    const manifest = manifestOf(root);
    expect(manifest).toMatchObject({ name: 'shop', version: '2.0.0', type: 'module' });
    expect(manifest.scripts).toMatchObject({
      build: 'make',
      test: expect.stringContaining('convapi generate --check'),
    });
    expect(manifest.dependencies).toMatchObject({
      '@convapi/runtime': 'file:../runtime.tgz',
      lodash: '^4.0.0',
      '@convapi/dsl': expect.any(String),
    });
    expect(result.stdout).toContain('"type" set to "module" (was "commonjs")');
  });

  it('refuses to overwrite files or scripts that exist: one clear line, exit 2, nothing written', () => {
    const root = emptyFolder();
    mkdirSync(join(root, 'definitions'));
    writeFileSync(join(root, 'definitions/notes.ts'), 'mine');
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'mine', scripts: { start: 'node server.js' } }));
    const result = init(root);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'init: would overwrite definitions/notes.ts, package.json scripts.start ("node server.js"); nothing written (--force overwrites them)',
    ]);
    expect(readFileSync(join(root, 'definitions/notes.ts'), 'utf8')).toBe('mine');
    expect(manifestOf(root)).toEqual({ name: 'mine', scripts: { start: 'node server.js' } });
    expect(existsSync(join(root, 'tsconfig.json'))).toBe(false);
  });

  it('overwrites them with --force', () => {
    const root = emptyFolder();
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'mine', scripts: { start: 'node server.js' } }));
    writeFileSync(join(root, 'tsconfig.json'), '{}');
    expect(init(root, '--force').status).toBe(0);
    expect(manifestOf(root).scripts!.start).toBe(
      'exec sh node_modules/@convapi/runtime/bin/with-allocator.sh node --max-semi-space-size=8 --import @convapi/runtime/node-check generated/main.ts',
    );
    expect(readFileSync(join(root, 'tsconfig.json'), 'utf8')).toContain('"strict": true');
  });

  it('writes into --dir, creating it, and names the package after it', () => {
    const root = join(emptyFolder(), 'My API');
    expect(init(emptyFolder(), '--dir', root).status).toBe(0);
    expect(manifestOf(root).name).toBe('my-api');
  });

  it('answers an unknown option with one line naming it and the usage, exit 2', () => {
    const result = init(emptyFolder(), '--bogus');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^init: unknown option '--bogus'\nusage: convapi init/);
  });

  it('refuses a package.json that is not a JSON object, exit 2, nothing written', () => {
    const root = emptyFolder();
    writeFileSync(join(root, 'package.json'), '[1, 2');
    const result = init(root);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^init: .*package\.json is not a JSON object; fix it or remove it first/);
    expect(existsSync(join(root, 'tsconfig.json'))).toBe(false);
  });

  it('answers --help with its usage, exit 0', () => {
    const result = init(emptyFolder(), '--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: convapi init/);
  });
});

describe('convapi', () => {
  it('lists its commands on --help and refuses an unknown one with exit 2', () => {
    const help = spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const command of ['init', 'generate', 'lint', 'token'])
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    const unknown = spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, 'deploy'], { encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^convapi: unknown command "deploy"/);
  });
});
