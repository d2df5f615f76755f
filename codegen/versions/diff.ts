import type { ResolvedModel } from '../model/index.ts';
import { shapedDeclarations, shapeOf, type ShapeField } from './shape.ts';

export interface VersionDiff {
  readonly declaration: string;
  readonly from: string;
  readonly to: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Same field name, another place: `state → profile.state`. */
  readonly moved: readonly { readonly from: string; readonly to: string }[];
  /** Same path, another kind or requiredness. */
  readonly changed: readonly string[];
}

const leafName = (path: string) => path.split('.').at(-1) ?? path;

/** What changes between two shapes. A removed and an added leaf with the same name is a move. */
export function diffShapes(
  before: readonly ShapeField[],
  after: readonly ShapeField[],
): Omit<VersionDiff, 'declaration' | 'from' | 'to'> {
  const beforePaths = new Map(before.map((field) => [field.path, field]));
  const afterPaths = new Map(after.map((field) => [field.path, field]));
  let removed = before.filter((field) => !afterPaths.has(field.path)).map((field) => field.path);
  let added = after.filter((field) => !beforePaths.has(field.path)).map((field) => field.path);
  const moved: { from: string; to: string }[] = [];
  for (const path of [...removed]) {
    const target = added.find((candidate) => leafName(candidate) === leafName(path));
    if (target === undefined) continue;
    moved.push({ from: path, to: target });
    removed = removed.filter((item) => item !== path);
    added = added.filter((item) => item !== target);
  }
  const changed = after
    .filter((field) => {
      const old = beforePaths.get(field.path);
      return old !== undefined && (old.kind !== field.kind || old.required !== field.required);
    })
    .map((field) => field.path);
  return { added, removed, moved, changed };
}

/** The differences between consecutive versions of every declaration that has more than one. */
export function versionDiffs(model: ResolvedModel): VersionDiff[] {
  return shapedDeclarations(model).flatMap((declaration) =>
    declaration.versions.slice(1).map((version, index) => {
      const previous = declaration.versions[index]!;
      return {
        declaration: declaration.name,
        from: previous.name,
        to: version.name,
        ...diffShapes(shapeOf(previous), shapeOf(version)),
      };
    }),
  );
}

/** One line per difference, for the generator's output and generated/versions.md. */
export function describeDiff(diff: VersionDiff): string[] {
  const lines = [
    ...diff.added.map((path) => `added ${path}`),
    ...diff.removed.map((path) => `removed ${path}`),
    ...diff.moved.map((move) => `moved ${move.from} → ${move.to}`),
    ...diff.changed.map((path) => `changed ${path}`),
  ];
  return lines.length === 0 ? ['no change'] : lines;
}
