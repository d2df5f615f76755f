export { lintDefinitions, lintLoaded, lintProject, type LintOptions, type ProjectLint } from './lint.ts';
export { formatDiagnostic, compareDiagnostics, type Diagnostic, type RuleInfo, type Severity } from './diagnostic.ts';
export { RULES, DEFINITION_RULES, rulesOf, severityOf } from './registry.ts';
export { DeclarationLocator, type Position } from './locate.ts';
export { FORMATS, isFormatName, JSON_FORMAT_VERSION, type FormatName, type Report } from './formats/index.ts';
export type { Finding } from './finding.ts';
