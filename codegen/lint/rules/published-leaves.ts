import type { ResolvedModel } from '../../model/index.ts';
import { shapeOf, type PublishedShapes, type ShapeField } from '../../versions/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations } from './context.ts';
import { accessOf } from './published-rules.ts';

/** A leaf a published version recorded, beside the same leaf as declared now, of the same kind. */
export interface PublishedLeaf {
  /** `pets v1`: how a finding names the version. */
  readonly version: string;
  /** `v1` */
  readonly versionName: string;
  /** The version a changed shape belongs in: `v2` after `v1`. */
  readonly next: string;
  readonly before: ShapeField;
  readonly now: ShapeField;
  /** A finding about this leaf, at the leaf's declaration. */
  readonly finding: (rule: string, message: string) => Finding;
}

/**
 * Every leaf of every published version that is still declared with the kind it was published with:
 * what the rules comparing a leaf's bounds or values read. Gone leaves, changed kinds and removed
 * declarations are publishedShapes' and publishedDeclarationRemoved's to report.
 */
export function publishedLeaves(model: ResolvedModel, published: PublishedShapes | undefined): PublishedLeaf[] {
  const declarations = allDeclarations(model);
  return Object.entries(published ?? {}).flatMap(([name, versions]) => {
    const declaration = declarations.find((candidate) => candidate.name === name);
    return Object.entries(versions).flatMap(([versionName, recorded]) => {
      const version = declaration?.versions.find((candidate) => candidate.name === versionName);
      if (declaration === undefined || version === undefined) return [];
      const current = new Map(shapeOf(version).map((leaf) => [leaf.path, leaf]));
      return recorded.flatMap((before): PublishedLeaf[] => {
        const now = current.get(before.path);
        if (now === undefined || now.kind !== before.kind) return [];
        const at = accessOf(version, before.path) ?? ['versions', versionName];
        return [
          {
            version: `${name} ${versionName}`,
            versionName,
            next: `v${Number(versionName.slice(1)) + 1}`,
            before,
            now,
            finding: (rule, message) => ({ rule, source: declaration.source, at, message }),
          },
        ];
      });
    });
  });
}
