import { basename } from 'node:path';
import type { ResolvedDeclaration, ResolvedModel } from '../../model/index.ts';
import { diffShapes, shapeOf, type PublishedShapes } from '../../versions/index.ts';
import type { Finding } from '../finding.ts';

/** The model without the declarations that are duplicates or misplaced, and one finding for each of those. */
export interface RootCauses {
  readonly model: ResolvedModel;
  readonly findings: Finding[];
}

/**
 * duplicate-declaration and aggregate-parent (a collection twin of an aggregate): found before every
 * other rule, reported once at the line of the declaration that is in the way (naming the place of the
 * other), and taken out of the model the other rules see, so nothing that only follows from it (a
 * published shape compared with the wrong declaration, a duplicate path) is reported as well.
 *
 * Of two declarations of one name, the one that keeps its place is the one whose shapes match what
 * was published, else an aggregate over a collection twin, else the one in the file named after it
 * (`orders` in orders.ts), else the first file.
 */
export function rootCauses(model: ResolvedModel, published: PublishedShapes): RootCauses {
  const groups = new Map<string, ResolvedDeclaration[]>();
  for (const declaration of [...model.collections, ...model.aggregates, ...model.services, ...model.settings]) {
    // Collections and aggregates share the resource family's names; services and settings have their own.
    const family =
      declaration.kind === 'collection' || declaration.kind === 'aggregate' ? 'resource' : declaration.kind;
    const key = `${family} ${declaration.name}`;
    groups.set(key, [...(groups.get(key) ?? []), declaration]);
  }
  const findings: Finding[] = [];
  const removed = new Set<ResolvedDeclaration>();
  for (const declarations of groups.values()) {
    if (declarations.length < 2) continue;
    const kept = [...declarations].sort(
      (a, b) => rank(a, published) - rank(b, published) || a.source.localeCompare(b.source),
    )[0]!;
    for (const other of declarations.filter((declaration) => declaration !== kept)) {
      removed.add(other);
      const related = { source: kept.source, at: ['name'] };
      findings.push(
        other.kind === 'collection' && kept.kind === 'aggregate'
          ? {
              rule: 'aggregate-parent',
              source: other.source,
              at: ['name'],
              related,
              message: `collection "${other.name}" makes aggregate "${kept.name}" reachable at the top level (the aggregate is declared at {related}); an aggregate is reached only through its parent "${kept.parent}": remove or rename the collection`,
            }
          : {
              rule: 'duplicate-declaration',
              source: other.source,
              at: ['name'],
              related,
              message: `${other.kind} "${other.name}" is already declared at {related}; one name serves one resource: rename this one or remove it`,
            },
      );
    }
  }
  const keep = <T extends ResolvedDeclaration>(list: readonly T[]) =>
    list.filter((declaration) => !removed.has(declaration));
  return {
    model: {
      ...model,
      collections: keep(model.collections),
      aggregates: keep(model.aggregates),
      services: keep(model.services),
      settings: keep(model.settings),
    },
    findings,
  };
}

/** Lower keeps its place: 0 matches what was published, 1 an aggregate, 2 named after its file, 3 the rest. */
function rank(declaration: ResolvedDeclaration, published: PublishedShapes): number {
  if (matchesPublished(declaration, published)) return 0;
  if (declaration.kind === 'aggregate') return 1;
  if (basename(declaration.source, '.ts') === declaration.name.replaceAll('/', '-')) return 2;
  return 3;
}

function matchesPublished(declaration: ResolvedDeclaration, published: PublishedShapes): boolean {
  const versions = published[declaration.name];
  if (versions === undefined) return false;
  return Object.entries(versions).every(([name, shape]) => {
    const version = declaration.versions.find((candidate) => candidate.name === name);
    if (version === undefined) return false;
    const diff = diffShapes(shape, shapeOf(version));
    return diff.removed.length + diff.moved.length + diff.changed.length + diff.added.length === 0;
  });
}
