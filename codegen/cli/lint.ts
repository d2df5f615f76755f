import { relative, resolve, sep } from 'node:path';
import { command, UsageError } from '@convapi/runtime/cli';
import { FORMATS, isFormatName, lintProject, rulesOf, type Diagnostic } from '../lint/index.ts';
import { lintOpenApiFile } from '../openapi-lint/index.ts';

export const USAGE = `usage: npm run lint:definitions -- [options]
  --root DIR        project root whose definitions/ is linted (default: the current folder)
  --format FORMAT   text (default): path:line:col severity rule-id message, the line, a summary
                    json: { version, errors, warnings, diagnostics: [...] }
                    sarif: SARIF 2.1.0, for code scanning
                    github: ::error file=...,line=...,col=...::message workflow commands
  --openapi FILE    lint an OpenAPI document (JSON or YAML) from elsewhere against the conventions
  --rules           list the rules (with --openapi: those of OpenAPI documents) and exit
  --help            this text
exit status: 0 no error (warnings allowed), 1 findings at error level,
             2 a usage error or nothing to lint (no definitions/ folder, no such file)`;

/**
 * `npm run lint:definitions`: lints definitions/ (type check included), or with --openapi an
 * OpenAPI document, and prints the diagnostics in the chosen format on stdout.
 */
export const run = command({
  name: 'lint',
  usage: USAGE,
  options: {
    root: { type: 'string' },
    format: { type: 'string', default: 'text' },
    openapi: { type: 'string' },
    rules: { type: 'boolean', default: false },
  },
  main: async ({ values }) => {
    const format = values.format;
    if (!isFormatName(format)) throw new UsageError(`unknown format '${format}'; choose text, json, sarif or github`);
    const scope = values.openapi === undefined ? 'definitions' : 'openapi';
    const rules = rulesOf(scope);
    if (values.rules) {
      for (const rule of rules) console.log(`${rule.id} (${rule.severity}): ${rule.summary}`);
      return 0;
    }
    const root = resolve(values.root ?? process.cwd());
    const { diagnostics, subject } = await lintSubject(root, values.openapi);
    process.stdout.write(FORMATS[format]({ diagnostics, rules, subject }));
    return diagnostics.some((diagnostic) => diagnostic.severity === 'error') ? 1 : 0;
  },
});

async function lintSubject(
  root: string,
  openapi: string | undefined,
): Promise<{ diagnostics: Diagnostic[]; subject: string }> {
  if (openapi === undefined)
    return { diagnostics: (await lintProject(root, { docComments: false })).diagnostics, subject: 'definitions' };
  // The file's path as given, relative to the root: what SARIF and the annotations point at.
  const path = resolve(openapi);
  const display = relative(root, path).split(sep).join('/');
  return { diagnostics: lintOpenApiFile(path, display.startsWith('..') ? path : display), subject: openapi };
}

if (import.meta.main) process.exitCode = await run(process.argv.slice(2));
