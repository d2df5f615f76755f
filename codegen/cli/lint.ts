import { parseArgs } from 'node:util';
import { formatDiagnostic, lintDefinitions, RULES } from '../lint/index.ts';

/**
 * `npm run lint:definitions [-- --root DIR] [-- --rules]`: prints each diagnostic as
 * `path:line:col severity rule-id message` with the offending line, then a summary; exit 1 on any error.
 */
export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { root: { type: 'string', default: process.cwd() }, rules: { type: 'boolean', default: false } } });
  if (values.rules) {
    for (const rule of RULES) console.log(`${rule.id} (${rule.severity}): ${rule.summary}`);
    return 0;
  }
  const diagnostics = await lintDefinitions(values.root);
  for (const diagnostic of diagnostics) console.log(formatDiagnostic(diagnostic));
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  console.log(diagnostics.length === 0 ? 'definitions: no problems' : `${errors} error(s), ${warnings} warning(s)`);
  return errors > 0 ? 1 : 0;
}
