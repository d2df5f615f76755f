export type Severity = 'error' | 'warning';

/**
 * One lint rule: kebab-case id, severity, what it checks (`lint:definitions --rules`), and help on
 * what to do (the SARIF rule's help text).
 */
export interface RuleInfo {
  readonly id: string;
  readonly severity: Severity;
  readonly summary: string;
  readonly help: string;
  /** What the rule reads: the definitions of a project, or an OpenAPI document (`--openapi`). */
  readonly scope: 'definitions' | 'openapi';
}

/** One problem in a definition, with the position of the declaration to fix. */
export interface Diagnostic {
  readonly rule: string;
  readonly severity: Severity;
  /** What is wrong and what to do next. */
  readonly message: string;
  /** Relative to the project root: `definitions/orders.ts`. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Where the offending node ends (same line and column as the start when only a point is known). */
  readonly endLine: number;
  readonly endColumn: number;
  /** The text of the offending line. */
  readonly sourceLine: string;
  /** The other place the diagnostic is about (the first declaration of a duplicated name). */
  readonly related?: { readonly file: string; readonly line: number; readonly column: number };
}

/** `path:line:col severity rule-id message`, then the offending line indented with `  | `. */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const head = `${diagnostic.file}:${diagnostic.line}:${diagnostic.column} ${diagnostic.severity} ${diagnostic.rule} ${diagnostic.message}`;
  return diagnostic.sourceLine.trim() === '' ? head : `${head}\n  | ${diagnostic.sourceLine.trimEnd()}`;
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule);
}
