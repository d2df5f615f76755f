import { join } from 'node:path';
import { DefinitionLoadError, loadDefinitions, type LoadedDefinition } from '../load/load-definitions.ts';
import { resolveModel } from '../model/index.ts';
import { flattenRoutes } from '../routes/index.ts';
import { compareDiagnostics, type Diagnostic } from './diagnostic.ts';
import type { Finding } from './finding.ts';
import { DeclarationLocator } from './locate.ts';
import { severityOf } from './registry.ts';
import { ALL_RULES } from './rules/index.ts';
import { readPublished } from '../versions/index.ts';

/**
 * Lints the definitions of a project: loads them, resolves the model, runs every rule, and places
 * each finding at the line and column of the declaration to fix. Sorted, so the output is stable.
 */
export async function lintDefinitions(root: string): Promise<Diagnostic[]> {
  let definitions: LoadedDefinition[];
  try {
    definitions = await loadDefinitions(root);
  } catch (error) {
    if (!(error instanceof DefinitionLoadError)) throw error;
    return [{ rule: 'load-failed', severity: 'error', message: error.message.slice(error.file.length + 2), file: error.file, line: 1, column: 1, sourceLine: '' }];
  }
  return lintLoaded(root, definitions);
}

/** Lints definitions already loaded (the generator loads them once for both). */
export function lintLoaded(root: string, definitions: readonly LoadedDefinition[]): Diagnostic[] {
  const model = resolveModel(definitions);
  const input = { model, routes: flattenRoutes(model), published: readPublished(root) };
  const locator = new DeclarationLocator();
  return ALL_RULES.flatMap((rule) => rule(input))
    .map((finding) => place(root, locator, finding))
    .sort(compareDiagnostics);
}

function place(root: string, locator: DeclarationLocator, finding: Finding): Diagnostic {
  const position = locator.locate(join(root, finding.source), finding.at, finding.argument ?? false);
  return { rule: finding.rule, severity: severityOf(finding.rule), message: finding.message, file: finding.source, ...position };
}
