import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lintOpenApiText } from '../../../codegen/openapi-lint/index.ts';
import { REPOSITORY, SOURCE_CONDITION } from '../../support/spawn-server.ts';
import { CLI } from '../../support/temp-project.ts';

type Json = Record<string, any>;

const header = (type: string) => ({ schema: { type } });

/** One operation that follows every convention the linter checks. */
const operation = (): Json => ({
  responses: {
    '200': {
      description: 'One resource.',
      headers: {
        ETag: header('string'),
        'X-RateLimit-Limit': header('integer'),
        'X-RateLimit-Remaining': header('integer'),
        'X-RateLimit-Reset': header('integer'),
      },
      content: {
        'application/json': {
          schema: { type: 'object', properties: { order_id: { type: 'integer' }, created_at: { type: 'string' } } },
        },
      },
    },
    '404': { $ref: '#/components/responses/Problem' },
    '429': { $ref: '#/components/responses/Problem' },
  },
});

/** A document from elsewhere that lints clean. */
const conforming = (): Json => ({
  openapi: '3.1.0',
  info: { title: 'Planted', version: '1' },
  security: [{ token_auth: [] }],
  paths: { '/v1/orders/{order_id}': { get: operation() } },
  components: {
    securitySchemes: { token_auth: { type: 'http', scheme: 'bearer' } },
    responses: {
      Problem: {
        description: 'An error.',
        content: { 'application/json;charset=UTF-8': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      },
    },
    schemas: {
      ErrorBody: {
        type: 'object',
        required: ['message', 'errors'],
        properties: {
          message: { type: 'string' },
          errors: {
            type: 'array',
            items: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
    },
  },
});

const renamePath = (to: string) => (document: Json) => {
  document.paths = { [to]: document.paths['/v1/orders/{order_id}'] };
};

/** [rule, change to the conforming document, the key whose line the finding is at (a line ending with `key:` or `"key": {`/`[`)]. */
const cases: [string, (document: Json) => void, string][] = [
  ['openapi-path-family', renamePath('/v1/services/search'), '/v1/services/search'],
  ['openapi-path-version', renamePath('/orders/{order_id}'), '/orders/{order_id}'],
  ['openapi-path-case', renamePath('/v1/Trade_Orders/{order_id}'), '/v1/Trade_Orders/{order_id}'],
  ['openapi-plural-collection', renamePath('/v1/order/{order_id}'), '/v1/order/{order_id}'],
  [
    'openapi-nesting-depth',
    renamePath('/v1/users/{user_id}/orders/{order_id}/lines'),
    '/v1/users/{user_id}/orders/{order_id}/lines',
  ],
  [
    'openapi-aggregate-parent',
    (document) => {
      document.paths['/v1/users/{user_id}/profiles'] = { get: operation() };
      document.paths['/v1/profiles'] = { get: operation() };
    },
    '/v1/profiles',
  ],
  [
    'openapi-property-name-case',
    (document) =>
      void (document.paths['/v1/orders/{order_id}'].get.responses['200'].content[
        'application/json'
      ].schema.properties.orderId = { type: 'string' }),
    'orderId',
  ],
  [
    'openapi-error-body',
    (document) => void (document.components.schemas.ErrorBody.required = ['message']),
    'ErrorBody',
  ],
  [
    'openapi-content-type',
    (document) => {
      const response = document.paths['/v1/orders/{order_id}'].get.responses['200'];
      response.content = { 'application/xml': response.content['application/json'] };
    },
    'application/xml',
  ],
  [
    'openapi-etag-header',
    (document) => void delete document.paths['/v1/orders/{order_id}'].get.responses['200'].headers.ETag,
    '200',
  ],
  [
    'openapi-rate-limit-headers',
    (document) => void delete document.paths['/v1/orders/{order_id}'].get.responses['200'].headers['X-RateLimit-Reset'],
    '200',
  ],
  [
    'openapi-rate-limit-headers',
    (document) => void delete document.paths['/v1/orders/{order_id}'].get.responses,
    'get',
  ],
  [
    'openapi-bearer-security',
    (document) =>
      void (document.components.securitySchemes.token_auth = { type: 'apiKey', in: 'query', name: 'access_token' }),
    'token_auth',
  ],
];

const serialisations: [string, (document: Json) => string][] = [
  ['JSON', (document) => `${JSON.stringify(document, null, 2)}\n`],
  ['YAML', (document) => stringify(document)],
];

/** The 1-based line on which `key` is written as a key opening a block (found by reading the text, not by parsing it). */
function lineOfKey(text: string, key: string): number {
  const lines = text.split('\n');
  const matches = lines.flatMap((line, index) => {
    const trimmed = line.trim().replace(/^- /, '');
    const written = [`${key}:`, `"${key}":`, `'${key}':`].some((form) =>
      [form, `${form} {`, `${form} [`, `${form} {}`, `${form} {},`].includes(trimmed),
    );
    return written ? [index + 1] : [];
  });
  if (matches.length !== 1) throw new Error(`key ${key} is written on ${matches.length} lines`);
  return matches[0]!;
}

describe('lint --openapi on planted documents', () => {
  it.each(serialisations)('the conforming document lints clean (%s)', (_format, serialise) => {
    expect(lintOpenApiText(serialise(conforming()), 'api.doc')).toEqual([]);
  });

  describe.each(serialisations)('%s', (_format, serialise) => {
    it.each(cases)('%s: one finding, at the line and column of the offending key', (rule, change, key) => {
      const document = conforming();
      change(document);
      const text = serialise(document);
      const diagnostics = lintOpenApiText(text, 'api.doc');
      expect(diagnostics.map((diagnostic) => diagnostic.rule)).toEqual([rule]);
      const [diagnostic] = diagnostics;
      const line = lineOfKey(text, key);
      expect(diagnostic!.line).toBe(line);
      const written = text.split('\n')[line - 1]!;
      expect(diagnostic!.column).toBe(written.search(/[^\s-]/) + 1);
      expect(diagnostic!.sourceLine).toBe(written);
    });
  });

  it('a HEAD operation documents its errors without a body', () => {
    const document = conforming();
    document.paths['/v1/orders/{order_id}'].head = {
      responses: {
        '200': { description: 'Headers only.', headers: operation().responses['200'].headers },
        '404': { description: 'Not found.' },
        '429': { description: 'Too many.' },
      },
    };
    expect(lintOpenApiText(JSON.stringify(document, null, 2), 'api.json')).toEqual([]);
    document.paths['/v1/orders/{order_id}'].get.responses['404'] = { description: 'Not found.' };
    expect(lintOpenApiText(JSON.stringify(document, null, 2), 'api.json').map((diagnostic) => diagnostic.rule)).toEqual(
      ['openapi-error-body'],
    );
  });

  it('an operation declared public with security: [] (a health probe) is outside the bearer and call-limit rules, and only it', () => {
    const document = conforming();
    document.paths['/services/v1/health'] = {
      get: { security: [], responses: { '200': { description: 'Alive.', headers: { ETag: header('string') } } } },
    };
    expect(lintOpenApiText(JSON.stringify(document, null, 2), 'api.json')).toEqual([]);
    document.paths['/services/v1/health'].get.security = [{ other: [] }];
    expect(lintOpenApiText(JSON.stringify(document, null, 2), 'api.json').map((diagnostic) => diagnostic.rule)).toEqual(
      ['openapi-bearer-security', 'openapi-rate-limit-headers', 'openapi-rate-limit-headers'],
    );
  });

  it('an operation whose security names only the User-Agent header (an apiKey scheme) is public as well, and only that scheme', () => {
    const document = conforming();
    document.components.securitySchemes.user_agent = { type: 'apiKey', in: 'header', name: 'User-Agent' };
    document.components.securitySchemes.key = { type: 'apiKey', in: 'header', name: 'X-Api-Key' };
    document.paths['/services/v1/health'] = {
      get: {
        security: [{ user_agent: [] }],
        responses: { '200': { description: 'Alive.', headers: { ETag: header('string') } } },
      },
    };
    expect(lintOpenApiText(JSON.stringify(document, null, 2), 'api.json')).toEqual([]);
    document.paths['/services/v1/health'].get.security = [{ user_agent: [], key: [] }];
    expect(lintOpenApiText(JSON.stringify(document, null, 2), 'api.json').map((diagnostic) => diagnostic.rule)).toEqual(
      ['openapi-bearer-security', 'openapi-rate-limit-headers', 'openapi-rate-limit-headers'],
    );
  });

  it.each([
    ['JSON', '{\n  "openapi": "3.1.0",\n  "paths": {\n    "/v1/orders": {,\n  }\n}\n', 4],
    ['YAML', 'openapi: 3.1.0\npaths:\n  /v1/orders: [\n', 4],
  ])('a %s syntax error is reported at its line', (_format, text, line) => {
    const [diagnostic, ...rest] = lintOpenApiText(text, 'api.doc');
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({ rule: 'openapi-syntax', severity: 'error', line });
  });
});

const lint = (...args: string[]) =>
  spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, 'lint', ...args], { cwd: REPOSITORY, encoding: 'utf8' });

describe('npm run lint:definitions -- --openapi FILE', () => {
  it.each(readdirSync(join(REPOSITORY, 'generated/openapi')).filter((name) => name.endsWith('.json')))(
    'our own generated/openapi/%s lints clean',
    (name) => {
      const result = lint('--openapi', `generated/openapi/${name}`);
      expect(result.stdout).toBe(`generated/openapi/${name}: no problems\n`);
      expect(result.status).toBe(0);
    },
  );

  it('places findings at the same line and column in every format, and exits 1', () => {
    const folder = mkdtempSync(join(tmpdir(), 'openapi-'));
    const document = conforming();
    renamePath('/v1/order/{order_id}')(document);
    const text = stringify(document);
    writeFileSync(join(folder, 'api.yaml'), text);
    const line = lineOfKey(text, '/v1/order/{order_id}');
    const run = (format: string) => lint('--root', folder, '--openapi', join(folder, 'api.yaml'), '--format', format);
    const textRun = run('text');
    expect(textRun.status).toBe(1);
    expect(textRun.stdout.split('\n')[0]).toBe(
      `api.yaml:${line}:3 error openapi-plural-collection collection "order" of /v1/order/{order_id} is not plural; a collection path is the plural name: "orders"`,
    );
    expect(JSON.parse(run('json').stdout).diagnostics[0]).toMatchObject({ file: 'api.yaml', line, column: 3 });
    const sarif = JSON.parse(run('sarif').stdout);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation).toMatchObject({
      artifactLocation: { uri: 'api.yaml' },
      region: { startLine: line, startColumn: 3 },
    });
    expect(sarif.runs[0].tool.driver.rules.every((rule: { id: string }) => rule.id.startsWith('openapi-'))).toBe(true);
    expect(run('github').stdout).toMatch(new RegExp(`^::error file=api\\.yaml,line=${line},col=3,`));
  });

  it('a missing file: one line, exit 2', () => {
    const result = lint('--openapi', 'no-such-file.yaml');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^lint: \S+no-such-file\.yaml: no such file\n$/);
  });
});
