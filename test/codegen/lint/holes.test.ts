import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { lintDefinitions, type Diagnostic } from '../../../codegen/lint/index.ts';
import { loadDefinitions } from '../../../codegen/load/load-definitions.ts';
import { resolveModel } from '../../../codegen/model/index.ts';
import { CLI, copyProject, copyProjectWithoutMigrations, editFile, generateIn } from '../../support/temp-project.ts';
import { writeDefinitions } from '../../support/temp-definitions.ts';
import { REPOSITORY, SOURCE_CONDITION } from '../../support/spawn-server.ts';

const brief = (diagnostics: Diagnostic[]) =>
  diagnostics.map(({ rule, file, line, column, message }) => ({ rule, at: `${file}:${line}:${column}`, message }));

/** `generate --root ROOT`, for a project that is only a definitions/ folder. */
const generateAt = (root: string) => {
  const result = spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, 'generate', '--root', root], {
    cwd: REPOSITORY,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

describe('server-managed and reserved member names', () => {
  it('each is reported at the field, and generate refuses instead of writing code that fails tsc', () => {
    const root = copyProject();
    writeFileSync(
      join(root, 'definitions/notes.ts'),
      `import { collection, field } from '@convapi/dsl';

export default collection({
  name: 'notes',
  identifier: { name: 'note_id', type: 'integer' },
  fields: {
    note_id: field.integer(),
    created_at: field.time(),
    uri: field.string(),
    identity: field.string(),
    links: field.string(),
    message: field.string(),
    errors: field.string(),
    text: field.string(),
  },
  versions: { v1: {} },
});
`,
    );
    const generated = generateIn(root);
    expect(generated.status).toBe(1);
    const reported = generated.output.split('\n').filter((line) => line.includes(' reserved-member-name '));
    expect(reported.map((line) => line.split(' ')[0])).toEqual(
      [7, 8, 9, 10, 11, 12, 13].map((line) => `definitions/notes.ts:${line}:5`),
    );
    expect(reported[0]).toContain(
      'field "note_id" of collection "notes" has the name of the identifier of notes, assigned by the server',
    );
    expect(reported[5]).toContain('field "message" of collection "notes" has the name of a member of the error body');
    expect(generated.output).toContain('generate: the definitions have 7 error(s)');
  });
});

describe('a published declaration that disappears', () => {
  it('a deleted file is reported once, at its entry in published-versions.json; generate removes nothing', () => {
    const root = copyProjectWithoutMigrations();
    rmSync(join(root, 'definitions/orders.ts'));
    const generated = generateIn(root);
    expect(generated.status).toBe(1);
    const diagnostics = generated.output.split('\n').filter((line) => /^\S+:\d+:\d+ error /.test(line));
    expect(diagnostics).toEqual([
      `published-versions.json:${publishedLine(root, 'orders')}:3 error published-declaration-removed "orders" (published v1, v2) is declared by no definition any more, so generate would remove it; a published API keeps its paths while callers use them: restore "orders" (mark its versions deprecated to retire them)`,
    ]);
    expect(publishedLine(root, 'orders')).toBeGreaterThan(1);
    expect(readFileSync(join(root, 'generated/resources/v1/orders.ts'), 'utf8')).toContain('ordersModel');
  });

  it('a renamed declaration is reported at its new name', async () => {
    const root = copyProjectWithoutMigrations();
    editFile(root, 'definitions/orders.ts', (text) => text.replace("name: 'orders'", "name: 'purchases'"));
    expect(brief(await lintDefinitions(root))).toEqual([
      {
        rule: 'published-declaration-removed',
        at: 'definitions/orders.ts:5:3',
        message:
          'collection "purchases" has the published shape of "orders" (v1, v2), which is declared no more: renaming a published declaration removes its paths; a published API keeps its paths while callers use them: restore "orders" (mark its versions deprecated to retire them), and declare "purchases" as a new version if both are wanted',
      },
    ]);
  });

  it('a deleted service is reported too', async () => {
    const root = copyProject();
    rmSync(join(root, 'definitions/search.ts'));
    expect(brief(await lintDefinitions(root)).map((d) => [d.rule, d.at])).toEqual([
      ['published-declaration-removed', `published-versions.json:${publishedLine(root, 'search')}:3`],
    ]);
  });
});

/** The line of published-versions.json that opens the entry of `name`, found by reading the text. */
const publishedLine = (root: string, name: string) =>
  readFileSync(join(root, 'published-versions.json'), 'utf8').split('\n').indexOf(`  "${name}": {`) + 1;

describe('one cause, one diagnostic, at the line that caused it', () => {
  it('a second declaration of a published collection: once, at the new file, naming the existing one', async () => {
    const root = copyProject();
    writeFileSync(
      join(root, 'definitions/new-orders.ts'),
      `import { collection, field } from '@convapi/dsl';\n\nexport default collection({\n  name: 'orders',\n  fields: { label: field.string() },\n  versions: { v1: {} },\n});\n`,
    );
    expect(brief(await lintDefinitions(root))).toEqual([
      {
        rule: 'duplicate-declaration',
        at: 'definitions/new-orders.ts:4:3',
        message:
          'collection "orders" is already declared at definitions/orders.ts:5:3; one name serves one resource: rename this one or remove it',
      },
    ]);
  });

  it('a top-level collection twin of the profiles aggregate: once, and no published-shape error', async () => {
    const root = copyProject();
    writeFileSync(
      join(root, 'definitions/profiles-top.ts'),
      `import { collection, field } from '@convapi/dsl';\n\nexport default collection({\n  name: 'profiles',\n  fields: { full_name: field.string() },\n  versions: { v1: {}, v2: {} },\n});\n`,
    );
    expect(brief(await lintDefinitions(root)).map((d) => [d.rule, d.at])).toEqual([
      ['aggregate-parent', 'definitions/profiles-top.ts:4:3'],
    ]);
  });
});

describe('type errors in definitions are lint errors at their position', () => {
  it('a syntax error: at its line and column, not 1:1, and generate gives the position too', () => {
    const root = writeDefinitions({
      'orders.ts': `import { collection, field } from 'DSL';\nexport default collection({\n  name: 'orders',\n  fields: { item: field.string( },\n  versions: { v1: {} },\n});\n`,
    });
    const generated = generateAt(root);
    expect(generated.status).toBe(1);
    expect(generated.output.split('\n')[0]).toBe(
      'definitions/orders.ts:4:33 error type-check TS1135: Argument expression expected.',
    );
  });

  it('a misspelt option: TS2561 at the option, with the right spelling; the field does not silently become optional', async () => {
    const root = writeDefinitions({
      'orders.ts': `import { collection, field } from 'DSL';\nexport default collection({\n  name: 'orders',\n  fields: { item: field.string({ requird: true }) },\n  versions: { v1: {} },\n});\n`,
    });
    const [diagnostic, ...rest] = await lintDefinitions(root);
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({
      rule: 'type-check',
      severity: 'error',
      file: 'definitions/orders.ts',
      line: 4,
      column: 34,
    });
    expect(diagnostic!.message).toMatch(
      /^TS2561: Object literal may only specify known properties, but 'requird' does not exist in type .*Did you mean to write 'required'\?$/,
    );
  });

  it('a type error and a rule finding on the same line are both reported', async () => {
    const root = writeDefinitions({
      'orders.ts': `import { collection, field } from 'DSL';\nexport default collection({\n  name: 'orders',\n  fields: { item: field.string({ requird: true }), created_at: field.time() },\n  versions: { v1: {} },\n});\n`,
    });
    expect(brief(await lintDefinitions(root)).map((d) => [d.rule, d.at])).toEqual([
      ['type-check', 'definitions/orders.ts:4:34'],
      ['reserved-member-name', 'definitions/orders.ts:4:52'],
    ]);
  });

  it('a misspelt option on a published field gives the type error alone, not a published-shape change as well', async () => {
    const root = copyProject();
    editFile(root, 'definitions/orders.ts', (text) =>
      text.replace('item: field.string({ required: true,', 'item: field.string({ requird: true,'),
    );
    expect(brief(await lintDefinitions(root)).map((d) => [d.rule, d.at])).toEqual([
      ['type-check', 'definitions/orders.ts:8:26'],
    ]);
  });
});

describe('plural and singular forms come from an inflection library', () => {
  it.each([
    ['status', 'statuses'],
    ['person', 'people'],
  ])('"%s" is not plural: name it "%s"', async (name, plural) => {
    const root = writeDefinitions({
      [`${name}.ts`]: `import { collection, field } from 'DSL';\nexport default collection({ name: '${name}', fields: {}, versions: { v1: {} } });\n`,
    });
    expect(brief(await lintDefinitions(root)).map((d) => d.message)).toEqual([
      `collection name "${name}" is not plural; a collection path is the plural name: name it "${plural}"`,
    ]);
  });

  it('book-shelves is plural, and its singular (for the type name BookShelfV1 and book_shelf_id) is book-shelf', async () => {
    const root = writeDefinitions({
      'book-shelves.ts': `import { collection, field } from 'DSL';\nexport default collection({ name: 'book-shelves', fields: {}, versions: { v1: {} } });\n`,
    });
    expect(await lintDefinitions(root)).toEqual([]);
    const [collection] = resolveModel(await loadDefinitions(root)).collections;
    expect(collection).toMatchObject({ singular: 'book-shelf', identifier: { name: 'book_shelf_id' } });
  });
});
