import type { Diagnostic } from '../diagnostic.ts';
import type { RuleInfo } from '../diagnostic.ts';

/** What every output format renders: the diagnostics and the rules that could have produced them. */
export interface Report {
  readonly diagnostics: readonly Diagnostic[];
  /** The rules run (those of definitions/, or of an OpenAPI document), in registry order. */
  readonly rules: readonly RuleInfo[];
  /** What was linted, for the text summary: `definitions`, or the OpenAPI file's path. */
  readonly subject: string;
}

export const countOf = (report: Report, severity: Diagnostic['severity']) =>
  report.diagnostics.filter((diagnostic) => diagnostic.severity === severity).length;
