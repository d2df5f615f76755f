import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResolvedModel } from '../model/index.ts';
import { shapedDeclarations, shapeOf, type ShapeField } from './shape.ts';

/** The file that records published version shapes, at the project root, committed. */
export const PUBLISHED_FILE = 'published-versions.json';

/** declaration name → version → its shape when it was published. */
export type PublishedShapes = Record<string, Record<string, ShapeField[]>>;

export function readPublished(root: string): PublishedShapes {
  const file = join(root, PUBLISHED_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PublishedShapes) : {};
}

/**
 * Records the current shape of the given versions of every declaration that serves them. From then
 * on, lint refuses a change to those shapes that is not a new version.
 */
export function publishVersions(root: string, model: ResolvedModel, versions: readonly string[]): string[] {
  const published = readPublished(root);
  const recorded: string[] = [];
  // Services too: their shape is empty, but their paths are published all the same.
  for (const declaration of [...shapedDeclarations(model), ...model.services]) {
    for (const version of declaration.versions.filter((candidate) => versions.includes(candidate.name))) {
      published[declaration.name] = { ...published[declaration.name], [version.name]: shapeOf(version) };
      recorded.push(`${declaration.name} ${version.name}`);
    }
  }
  const sorted = Object.fromEntries(
    Object.entries(published)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, byVersion]) => [
        name,
        Object.fromEntries(Object.entries(byVersion).sort(([a], [b]) => a.localeCompare(b))),
      ]),
  );
  writeFileSync(join(root, PUBLISHED_FILE), `${JSON.stringify(sorted, null, 2)}\n`);
  return recorded;
}
