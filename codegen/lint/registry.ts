import type { Severity } from './diagnostic.ts';

/** One lint rule: kebab-case id, severity, and what it checks (shown by `lint:definitions --rules`). */
export interface RuleInfo {
  readonly id: string;
  readonly severity: Severity;
  readonly summary: string;
}

/** The registry: every rule the linter knows, in one place. */
export const RULES: readonly RuleInfo[] = [
  { id: 'load-failed', severity: 'error', summary: 'a definition file that cannot be loaded or exports no declaration' },
  { id: 'path-segment-case', severity: 'error', summary: 'path segments are lowercase, words joined with hyphens' },
  { id: 'plural-collection', severity: 'error', summary: 'collection and aggregate names are plural' },
  { id: 'nesting-depth', severity: 'error', summary: 'resources nest at most two levels in a path' },
  { id: 'aggregate-parent', severity: 'error', summary: 'an aggregate is reachable only through its parent collection' },
  { id: 'property-name-case', severity: 'error', summary: 'property names are lowercase snake_case' },
  { id: 'unknown-reference', severity: 'error', summary: 'references name a declared collection' },
  { id: 'duplicate-path', severity: 'error', summary: 'no two declarations serve the same method and path' },
  { id: 'reserved-path', severity: 'error', summary: 'no service is named docs where the server serves the docs pages' },
  { id: 'version-name', severity: 'error', summary: 'versions are named v1, v2, ...' },
  { id: 'no-versions', severity: 'error', summary: 'every declaration is served under at least one version' },
  { id: 'published-shape-changed', severity: 'error', summary: 'a published version keeps its shape; a change is a new version' },
  { id: 'published-shape-extended', severity: 'warning', summary: 'an optional field added to a published version' },
  { id: 'put-create-identifier', severity: 'error', summary: 'PUT creates only where clients assign identifiers, and POST does not create there' },
  { id: 'moved-path', severity: 'error', summary: 'a former path (movedFrom) is not served now and redirects to one place' },
  { id: 'job-produces', severity: 'error', summary: 'a job type produces a declared collection' },
  { id: 'asynchronous-queue', severity: 'error', summary: 'asynchronous operations are served and queued on a declared job queue of every version' },
];

export const severityOf = (id: string): Severity => RULES.find((rule) => rule.id === id)?.severity ?? 'error';
