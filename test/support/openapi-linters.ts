import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createConfig, lint } from '@redocly/openapi-core';

const SPECTRAL_SCRIPT = fileURLToPath(new URL('./spectral-lint.ts', import.meta.url));

/** One finding of an outside linter, as `rule severity at path: message`. */
export interface LintFinding {
  readonly tool: 'spectral' | 'redocly';
  readonly rule: string;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly where: string;
  readonly message: string;
}

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

/** Spectral with its own `spectral:oas` ruleset, as `spectral lint` runs it (in a process of its own: spectral-lint.ts). */
export async function spectralFindings(documentPath: string): Promise<LintFinding[]> {
  const output = execFileSync(process.execPath, [SPECTRAL_SCRIPT, documentPath], { encoding: 'utf8' });
  const results = JSON.parse(output) as { code: string; severity: number; path: string; message: string }[];
  return results.map((result) => ({
    tool: 'spectral',
    rule: result.code,
    severity: SPECTRAL_SEVERITY[result.severity] ?? 'error',
    where: result.path,
    message: result.message,
  }));
}

/** Redocly with its `recommended` ruleset, as `redocly lint` runs it. */
export async function redoclyFindings(documentPath: string): Promise<LintFinding[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lint({ ref: documentPath, config });
  return problems.map((problem) => ({
    tool: 'redocly',
    rule: problem.ruleId,
    severity: problem.severity === 'warn' ? 'warning' : 'error',
    where: problem.location[0]?.pointer ?? '',
    message: problem.message,
  }));
}
