import type { ResolvedDeclaration, ResolvedField, ResolvedVersion } from '../../model/index.ts';
import { diffShapes, PUBLISHED_FILE, shapeOf, type ShapeField } from '../../versions/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations, removedPublished, type Rule } from './context.ts';

/** The field at a leaf's path (`profile.state`) in a version. */
function fieldAt(version: ResolvedVersion, path: string): ResolvedField | undefined {
  let fields: readonly ResolvedField[] | undefined = version.fields;
  let found: ResolvedField | undefined;
  for (const name of path.split('.')) {
    found = fields?.find((field) => field.name === name);
    fields = found?.fields;
  }
  return found;
}

/**
 * Whether every write must carry the leaf at `path`: it and every object around it are required. A
 * required member of an optional object is required only when the object is sent.
 */
function requiredAt(version: ResolvedVersion, path: string): boolean {
  let fields: readonly ResolvedField[] | undefined = version.fields;
  for (const name of path.split('.')) {
    const found: ResolvedField | undefined = fields?.find((field) => field.name === name);
    if (found === undefined || !found.required) return false;
    fields = found.fields;
  }
  return true;
}

/** The access path of a leaf in a version, for the position of a finding. */
export const accessOf = (version: ResolvedVersion, path: string): readonly string[] | undefined =>
  fieldAt(version, path)?.access;

const sameShape = (a: readonly ShapeField[], b: readonly ShapeField[]) => {
  const diff = diffShapes(a, b);
  return diff.added.length + diff.removed.length + diff.moved.length + diff.changed.length === 0;
};

/**
 * published-shape-changed / published-field-required / published-shape-extended: a published
 * version's shape (recorded in published-versions.json by `npm run generate -- --publish vN`) does
 * not change; a change is a new version. Adding an optional field, or a required one with a default,
 * is a warning; a required one without a default is an error of its own (rows stored before have no
 * value for it); anything else is published-shape-changed.
 */
export const publishedShapes: Rule = ({ model, published }) => {
  const findings: Finding[] = [];
  const declarations = allDeclarations(model);
  for (const [name, versions] of Object.entries(published ?? {})) {
    const declaration = declarations.find((candidate) => candidate.name === name);
    if (declaration === undefined) continue; // publishedDeclarationRemoved reports it.
    for (const [versionName, shape] of Object.entries(versions)) {
      const version = declaration.versions.find((candidate) => candidate.name === versionName);
      const at = ['versions', versionName];
      if (version === undefined) {
        findings.push({
          rule: 'published-shape-changed',
          source: declaration.source,
          at: ['versions'],
          message: `version ${versionName} of ${name} is published and can no longer be removed; mark it deprecated instead`,
        });
        continue;
      }
      const current = shapeOf(version);
      const diff = diffShapes(shape, current);
      const advice = `published versions do not change: declare the new shape as a new version (v${Number(versionName.slice(1)) + 1}) and keep ${versionName} as it was`;
      for (const path of diff.removed)
        findings.push({
          rule: 'published-shape-changed',
          source: declaration.source,
          at,
          message: `${name} ${versionName} no longer has field ${path}; ${advice}`,
        });
      for (const move of diff.moved)
        findings.push({
          rule: 'published-shape-changed',
          source: declaration.source,
          at: accessOf(version, move.to) ?? at,
          message: `${name} ${versionName} moved field ${move.from} to ${move.to}; ${advice}`,
        });
      for (const path of diff.changed)
        findings.push({
          rule: 'published-shape-changed',
          source: declaration.source,
          at: accessOf(version, path) ?? at,
          message: `${name} ${versionName} changed the type or requiredness of ${path}; ${advice}`,
        });
      for (const path of diff.added) {
        // A required member of an optional object is no more required than the object (requiredAt).
        const required = requiredAt(version, path);
        // A default answers both objections: rows stored before are served with it, and writes that leave the field out store it.
        const fallback = fieldAt(version, path)?.default;
        findings.push({
          rule: required && fallback === undefined ? 'published-field-required' : 'published-shape-extended',
          source: declaration.source,
          at: accessOf(version, path) ?? at,
          message: !required
            ? `${name} ${versionName} gained the optional field ${path}; readers of the published version see a new member: consider a new version`
            : fallback === undefined
              ? `${name} ${versionName} gained the required field ${path}: rows stored before have no value for it and would be served without it, and its writers do not send it; give it a default (\`{ required: true, default: ... }\`), make it optional, or declare it in a new version (v${Number(versionName.slice(1)) + 1})`
              : `${name} ${versionName} gained the required field ${path} with the default ${JSON.stringify(fallback)} (rows stored before are served with it, writes that leave it out store it); readers of the published version see a new member: consider a new version`,
        });
      }
    }
  }
  return findings;
};

/**
 * published-declaration-removed: a declaration whose versions are published stays declared. A deleted
 * definition file is reported at its entry in published-versions.json; a renamed declaration (one
 * not published, serving the same versions with the same shapes, which have fields) at its new name.
 */
export const publishedDeclarationRemoved: Rule = ({ model, published }) => {
  const removed = removedPublished(model, published);
  const unpublished = allDeclarations(model).filter((declaration) => published?.[declaration.name] === undefined);
  return Object.entries(published ?? {})
    .filter(([name]) => removed.has(name))
    .map(([name, versions]): Finding => {
      const list = Object.keys(versions).join(', ');
      const renamed = unpublished.find((candidate) => isRenameOf(candidate, versions));
      const restore = `a published API keeps its paths while callers use them: restore "${name}" (mark its versions deprecated to retire them)`;
      return renamed === undefined
        ? {
            rule: 'published-declaration-removed',
            source: PUBLISHED_FILE,
            at: [name],
            message: `"${name}" (published ${list}) is declared by no definition any more, so generate would remove it; ${restore}`,
          }
        : {
            rule: 'published-declaration-removed',
            source: renamed.source,
            at: ['name'],
            message: `${renamed.kind} "${renamed.name}" has the published shape of "${name}" (${list}), which is declared no more: renaming a published declaration removes its paths; ${restore}, and declare "${renamed.name}" as a new version if both are wanted`,
          };
    });
};

/** Same versions with the same shapes, and shapes with fields: two services (no fields) prove nothing alike. */
function isRenameOf(candidate: ResolvedDeclaration, versions: Record<string, ShapeField[]>): boolean {
  if (Object.values(versions).every((shape) => shape.length === 0)) return false;
  return Object.entries(versions).every(([name, shape]) => {
    const version = candidate.versions.find((item) => item.name === name);
    return version !== undefined && sameShape(shape, shapeOf(version));
  });
}
