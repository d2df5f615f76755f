import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { REPOSITORY, SOURCE_CONDITION } from '../../support/spawn-server.ts';
import { CLI } from '../../support/temp-project.ts';
import { writeDefinitions } from '../../support/temp-definitions.ts';

const lint = (root: string, ...args: string[]) =>
  spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, 'lint', '--root', root, ...args], {
    cwd: REPOSITORY,
    encoding: 'utf8',
  });

/** A project with an error (a singular name), a warning-free file, and a message with a ':' and ',' to escape. */
const root = writeDefinitions({
  'order.ts': `import { collection, field } from 'DSL';\nexport default collection({\n  name: 'order',\n  fields: { item: field.string() },\n  versions: { v1: {} },\n});\n`,
  'users.ts': `import { collection, field } from 'DSL';\nexport default collection({\n  name: 'users',\n  fields: { user_name: field.string(), created_at: field.time() },\n  versions: { v1: {} },\n});\n`,
});

const schema = JSON.parse(
  readFileSync(new URL('../../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
) as object;

describe('lint output formats', () => {
  it('sarif: a SARIF 2.1.0 log that validates against the schema, one rule entry per rule, results placed relative to the root', () => {
    const result = lint(root, '--format', 'sarif');
    expect(result.status).toBe(1);
    const log = JSON.parse(result.stdout);
    // CommonJS default exports, seen through Node's ESM interop.
    const Ajv = ((AjvDraft04 as unknown as { default?: typeof AjvDraft04 }).default ?? AjvDraft04) as unknown as new (
      options: object,
    ) => import('ajv').default;
    // unicodeRegExp off: one pattern of the published schema (language tags) is not valid in unicode mode.
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    (addFormats as unknown as (ajv: import('ajv').default) => void)(ajv);
    const validate = ajv.compile(schema);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const [run] = log.runs;
    const ruleIds = run.tool.driver.rules.map((rule: { id: string }) => rule.id);
    expect(ruleIds).toContain('plural-collection');
    expect(ruleIds).toContain('type-check');
    expect(new Set(ruleIds).size).toBe(ruleIds.length);
    for (const rule of run.tool.driver.rules) expect(rule.help.text.length).toBeGreaterThan(10);
    expect(run.results).toEqual([
      {
        ruleId: 'plural-collection',
        ruleIndex: ruleIds.indexOf('plural-collection'),
        level: 'error',
        message: {
          text: 'collection name "order" is not plural; a collection path is the plural name: name it "orders"',
        },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'definitions/order.ts', uriBaseId: '%SRCROOT%' },
              region: { startLine: 3, startColumn: 3, endLine: 3, endColumn: 7 },
            },
          },
        ],
      },
      expect.objectContaining({
        ruleId: 'reserved-member-name',
        level: 'error',
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'definitions/users.ts', uriBaseId: '%SRCROOT%' },
              region: { startLine: 4, startColumn: 40, endLine: 4, endColumn: 50 },
            },
          },
        ],
      }),
    ]);
  });

  it('github: exactly the workflow-command syntax, one line per diagnostic, properties escaped', () => {
    const result = lint(root, '--format', 'github');
    expect(result.status).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const command =
      /^::(error|warning) file=[^,:%\n]+,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[a-z-]+::[^\r\n]+$/;
    for (const line of lines) expect(line).toMatch(command);
    expect(lines[0]).toBe(
      '::error file=definitions/order.ts,line=3,col=3,endLine=3,endColumn=7,title=plural-collection::collection name "order" is not plural; a collection path is the plural name: name it "orders"',
    );
  });

  it('json: the documented shape', () => {
    const result = lint(root, '--format', 'json');
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ version: 1, errors: 2, warnings: 0 });
    expect(report.diagnostics[0]).toEqual({
      rule: 'plural-collection',
      severity: 'error',
      message: 'collection name "order" is not plural; a collection path is the plural name: name it "orders"',
      file: 'definitions/order.ts',
      line: 3,
      column: 3,
      endLine: 3,
      endColumn: 7,
      sourceLine: "  name: 'order',",
    });
  });

  it.each(['text', 'json', 'sarif', 'github'])('%s: exit 0 and no finding on the example API', (format) => {
    const result = lint(REPOSITORY, '--format', format);
    expect(result.status).toBe(0);
    if (format === 'json')
      expect(JSON.parse(result.stdout)).toEqual({ version: 1, errors: 0, warnings: 0, diagnostics: [] });
    if (format === 'sarif') expect(JSON.parse(result.stdout).runs[0].results).toEqual([]);
    if (format === 'github') expect(result.stdout).toBe('');
  });
});
