import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DefinitionLoadError,
  definitionFiles,
  loadEachDefinition,
  type LoadedDefinition,
} from '../load/load-definitions.ts';
import { resolveModel } from '../model/index.ts';
import { flattenRoutes } from '../routes/index.ts';
import { checkContextFile, GENERATED_TYPES_FILE, typeCheck, type TypeChecker } from '../typecheck/index.ts';
import { compareDiagnostics, type Diagnostic } from './diagnostic.ts';
import type { Finding } from './finding.ts';
import { DeclarationLocator } from './locate.ts';
import { severityOf } from './registry.ts';
import { ALL_RULES } from './rules/index.ts';
import { rootCauses } from './rules/root-causes.ts';
import { readPublished } from '../versions/index.ts';
import { checkedMigrations, keepsMigrations } from '../migrations/files.ts';

/** How lintProject() checks and loads: a watcher imports changed files anew. */
export interface LintOptions {
  /** Default: typeCheck() (tsgo in a child process). */
  readonly typeCheck?: TypeChecker;
  /** Import the definitions anew (not from the module cache), tagged with this number. */
  readonly revision?: number;
  /** Read the definitions' doc comments (default true): generation needs them for descriptions, no rule does. */
  readonly docComments?: boolean;
  /**
   * Called once every definition has loaded, before waiting for the type check: work to do while the
   * check runs in its own process (generate builds its files in memory then, and writes them only
   * when the lint is clean). Not called when a definition failed to load.
   */
  readonly whileTypeChecking?: (definitions: readonly LoadedDefinition[]) => void;
  /**
   * The text of generated/collection-rows.ts as these definitions generate it (generate builds it
   * while the check runs), or undefined when it is not known. When the check against the file in
   * generated/ found type errors and the text differs from that file (a collection or a field
   * added), the definitions are checked again against it: they are about to be generated, and the
   * older types would refuse what is right (`data.of('fines')` before fines is in the file), so
   * generate could never write the types that make it right. A clean check is not repeated: what the
   * new types might refuse is reported by the next lint, `generate --check` or `tsc`, and a first
   * generate (no generated/ yet) does not pay for a second check.
   */
  readonly generatedTypes?: () => Promise<string | undefined>;
}

/** What linting a project found, and the definitions when every one of them loaded. */
export interface ProjectLint {
  readonly diagnostics: Diagnostic[];
  /** Undefined when a definition could not be loaded: nothing can be generated from the project. */
  readonly definitions: LoadedDefinition[] | undefined;
}

/**
 * Lints the definitions of a project: type-checks definitions/ (in a child process, while this
 * process imports them), resolves the model, runs every rule, and places each finding at the line and
 * column of the declaration to fix. One cause gives one diagnostic: a definition that does not load
 * because it does not type-check is reported by its type errors; what only follows from a mistake
 * (a published shape changed by a misspelt option, a reference to a definition that did not load) is
 * left out. Sorted, so the output is stable. A root without definitions/ throws InputError.
 */
export async function lintProject(root: string, options: LintOptions = {}): Promise<ProjectLint> {
  const files = definitionFiles(root);
  const checker = options.typeCheck ?? typeCheck;
  const absoluteFiles = files.map((file) => join(root, file));
  // The project's generated types are in the program, as they are in `tsc`'s: without them every
  // `data.of(name)` is untyped, and a rule tsc refuses would lint clean.
  const generatedTypes = join(root, GENERATED_TYPES_FILE);
  const hasGeneratedTypes = existsSync(generatedTypes);
  const typeChecked = checker(root, absoluteFiles, hasGeneratedTypes ? [generatedTypes] : []);
  // Keep a failure of the check from going unhandled while the definitions load.
  typeChecked.catch(() => undefined);
  const results = await loadEachDefinition(root, files, {
    revision: options.revision,
    docComments: options.docComments,
  });
  const loadFailures = results.filter((result) => result instanceof DefinitionLoadError);
  const loaded = results.filter((result): result is LoadedDefinition => !(result instanceof DefinitionLoadError));
  // The rules, and the caller's own work, run while the check does: it is the longer of the two.
  const allRuleDiagnostics = lintLoaded(root, loaded);
  if (loadFailures.length === 0) options.whileTypeChecking?.(loaded);
  let typeErrors = await typeChecked;
  const refused = typeErrors.some((diagnostic) => diagnostic.severity === 'error');
  const typesToCome = loadFailures.length === 0 && refused ? await options.generatedTypes?.() : undefined;
  if (
    typesToCome !== undefined &&
    typesToCome !== (hasGeneratedTypes ? readFileSync(generatedTypes, 'utf8') : undefined)
  )
    typeErrors = await checkAgainst(checker, root, absoluteFiles, typesToCome);
  const filesWithTypeErrors = new Set(
    typeErrors.filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => diagnostic.file),
  );
  // A file that failed to load because it does not type-check is explained by its type errors.
  const unexplained = loadFailures
    .filter((failure) => !filesWithTypeErrors.has(failure.file))
    .map((failure) => loadFailedDiagnostic(root, failure));
  const ruleDiagnostics = allRuleDiagnostics.filter((diagnostic) => {
    // In a file that does not type-check, a shape may differ from the published one only through the mistake (`requird: true`).
    if (filesWithTypeErrors.has(diagnostic.file) && FOLLOWS_FROM_VALUES.has(diagnostic.rule)) return false;
    // With a definition missing, rules about the whole (references, published declarations) would report its absence.
    return loadFailures.length === 0 || !PROJECT_WIDE.has(diagnostic.rule);
  });
  // The DSL's types repeat some rules (a field name with a capital letter); the rule says it with advice, at the same place.
  const rulePlaces = new Set(
    ruleDiagnostics.map((diagnostic) => `${diagnostic.file}:${diagnostic.line}:${diagnostic.column}`),
  );
  const typeDiagnostics = typeErrors.filter(
    (diagnostic) => !rulePlaces.has(`${diagnostic.file}:${diagnostic.line}:${diagnostic.column}`),
  );
  return {
    diagnostics: [...typeDiagnostics, ...unexplained, ...ruleDiagnostics].sort(compareDiagnostics),
    definitions: loadFailures.length === 0 ? loaded : undefined,
  };
}

/** The definitions' type check with these generated types in the program instead of generated/'s. */
async function checkAgainst(
  checker: TypeChecker,
  root: string,
  files: readonly string[],
  generatedTypes: string,
): Promise<Diagnostic[]> {
  const context = checkContextFile(root, 'collection-rows.ts');
  writeFileSync(context, generatedTypes);
  try {
    return await checker(root, files, [context]);
  } finally {
    rmSync(context, { force: true });
  }
}

/** Rules whose findings follow from the values a definition declares, not only from how it is written. */
const FOLLOWS_FROM_VALUES = new Set([
  'published-shape-changed',
  'published-field-required',
  'published-shape-extended',
]);

/** Rules whose findings depend on every definition being there. */
const PROJECT_WIDE = new Set([
  'unknown-reference',
  'aggregate-parent',
  'published-declaration-removed',
  'duplicate-path',
  'duplicate-declaration',
]);

/** The diagnostics of lintProject(). */
export async function lintDefinitions(root: string): Promise<Diagnostic[]> {
  return (await lintProject(root)).diagnostics;
}

/** Runs the rules on definitions already loaded; no type check (lintProject does it). */
export function lintLoaded(root: string, definitions: readonly LoadedDefinition[]): Diagnostic[] {
  const published = readPublished(root);
  const causes = rootCauses(resolveModel(definitions), published);
  const input = { model: causes.model, routes: flattenRoutes(causes.model), published, ...migrationsOf(root) };
  return placeFindings(root, [...causes.findings, ...ALL_RULES.flatMap((rule) => rule(input))]);
}

/** The migration files of a project that keeps them, and the problems of their order. */
function migrationsOf(root: string) {
  if (!keepsMigrations(root)) return {};
  return { migrations: checkedMigrations(root) };
}

/** Findings placed at their line and column, as diagnostics, sorted. */
export function placeFindings(root: string, findings: readonly Finding[]): Diagnostic[] {
  const locator = new DeclarationLocator(root);
  return findings.map((finding) => place(locator, finding)).sort(compareDiagnostics);
}

function place(locator: DeclarationLocator, finding: Finding): Diagnostic {
  const position = locator.locate(finding);
  const diagnostic = {
    rule: finding.rule,
    severity: severityOf(finding.rule),
    message: finding.message,
    file: finding.source,
    ...position,
  };
  if (finding.related === undefined) return diagnostic;
  const other = locator.locate({ ...finding, ...finding.related, argument: false });
  const related = { file: finding.related.source, line: other.line, column: other.column };
  return {
    ...diagnostic,
    message: finding.message.replaceAll('{related}', `${related.file}:${related.line}:${related.column}`),
    related,
  };
}

function loadFailedDiagnostic(root: string, failure: DefinitionLoadError): Diagnostic {
  const line = failure.line ?? 1;
  const column = failure.column ?? 1;
  const sourceLine = new DeclarationLocator(root).lineOf(failure.file, line);
  return {
    rule: 'load-failed',
    severity: 'error',
    message: failure.reason,
    file: failure.file,
    line,
    column,
    endLine: line,
    endColumn: Math.max(column, sourceLine.length + 1),
    sourceLine,
  };
}
