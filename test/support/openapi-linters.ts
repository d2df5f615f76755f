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

/**
 * Spectral's one known false positive on these documents: `oas3-operation-security-defined` accepts
 * the scopes of a security requirement only from an OAuth 2.0 flow, while OpenAPI 3.1 lets a
 * requirement of any scheme list roles ("For other security scheme types, the array MAY contain a
 * list of role names"): upstream stoplightio/spectral#2643, fixed by the open pull request #2962.
 * A finding is that one when it names a scope listed on the `bearer` requirement (an http bearer
 * scheme) of an operation of a 3.1 document; the linter tests check each is exactly such a scope.
 */
export function isSpectralScopeFalsePositive(finding: LintFinding, document: any): boolean {
  const at = /^paths\.(.+)\.(get|put|post|patch|delete|head)\.security\.(\d+)\.bearer\.(\d+)$/.exec(finding.where);
  if (finding.rule !== 'oas3-operation-security-defined' || at === null) return false;
  const [, path, method, requirement, index] = at;
  const scheme = document.components?.securitySchemes?.bearer;
  const scope = document.paths?.[path!]?.[method!]?.security?.[Number(requirement)]?.bearer?.[Number(index)];
  return (
    String(document.openapi).startsWith('3.1') &&
    scheme?.type === 'http' &&
    scheme?.scheme === 'bearer' &&
    typeof scope === 'string' &&
    finding.message === `"${scope}" must be listed among scopes.`
  );
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
