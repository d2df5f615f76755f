import type { ResolvedModel } from '../../model/index.ts';
import type { RouteDescriptor } from '../../routes/index.ts';
import type { Finding } from '../finding.ts';
import type { PublishedShapes } from '../../versions/index.ts';
import type { MigrationFile, MigrationFileProblem } from '../../migrations/files.ts';

/** What every rule reads: the resolved model and the flattened routes. */
export interface RuleInput {
  readonly model: ResolvedModel;
  readonly routes: readonly RouteDescriptor[];
  /** Shapes of published versions (published-versions.json), if any. */
  readonly published?: PublishedShapes;
  /** The project's migration files and what is wrong with their order, when it keeps migrations. */
  readonly migrations?: {
    readonly files: readonly MigrationFile[];
    readonly problems: readonly MigrationFileProblem[];
    readonly complete: boolean;
  };
}

export type Rule = (input: RuleInput) => Finding[];

/** Every declaration of the model with its kind, for rules that look at all of them. */
export function allDeclarations(model: ResolvedModel) {
  return [...model.collections, ...model.aggregates, ...model.services, ...model.settings];
}

/**
 * Names whose versions are published but that no definition declares any more: published-declaration-removed
 * reports them, so a reference to one is not reported again.
 */
export function removedPublished(model: ResolvedModel, published: PublishedShapes | undefined): Set<string> {
  const declared = new Set(allDeclarations(model).map((declaration) => declaration.name));
  return new Set(Object.keys(published ?? {}).filter((name) => !declared.has(name)));
}
