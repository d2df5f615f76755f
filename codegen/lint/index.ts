export { lintDefinitions, lintLoaded } from './lint.ts';
export { formatDiagnostic, compareDiagnostics, type Diagnostic, type Severity } from './diagnostic.ts';
export { RULES, type RuleInfo } from './registry.ts';
export { DeclarationLocator, type Position } from './locate.ts';
export type { Finding } from './finding.ts';
