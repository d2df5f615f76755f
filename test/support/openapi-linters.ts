import { readFileSync } from 'node:fs';
import { createConfig, lint } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';

/** One finding of an outside linter, as `rule severity at path: message`. */
export interface LintFinding {
  readonly tool: 'spectral' | 'redocly';
  readonly rule: string;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly where: string;
  readonly message: string;
}

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

/** Spectral with its own `spectral:oas` ruleset, as `spectral lint` runs it. */
export async function spectralFindings(documentPath: string): Promise<LintFinding[]> {
  const { Spectral, Document } = spectralCore;
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[spectralRulesets.oas, 'recommended']] } as never);
  const document = new Document(readFileSync(documentPath, 'utf8'), spectralParsers.Json, documentPath);
  const results = await spectral.run(document);
  return results.map((result) => ({
    tool: 'spectral',
    rule: String(result.code),
    severity: SPECTRAL_SEVERITY[result.severity] ?? 'error',
    where: result.path.join('.'),
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

