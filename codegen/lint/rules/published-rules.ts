import type { ResolvedField, ResolvedVersion } from '../../model/index.ts';
import { diffShapes, shapeOf } from '../../versions/index.ts';
import type { Finding } from '../finding.ts';
import type { Rule } from './context.ts';

/** The access path of a leaf (`profile.state`) in a version, for the position of a finding. */
function accessOf(version: ResolvedVersion, path: string): readonly string[] | undefined {
  let fields: readonly ResolvedField[] | undefined = version.fields;
  let found: ResolvedField | undefined;
  for (const name of path.split('.')) {
    found = fields?.find((field) => field.name === name);
    fields = found?.fields;
  }
  return found?.access;
}

/**
 * published-shape-changed / published-shape-extended: a published version's shape (recorded in
 * published-versions.json by `npm run generate -- --publish vN`) does not change; a change is a new
 * version. Adding an optional field is a warning; anything else is an error.
 */
export const publishedShapes: Rule = ({ model, published }) => {
  const findings: Finding[] = [];
  const declarations = [...model.collections, ...model.aggregates, ...model.settings];
  for (const [name, versions] of Object.entries(published ?? {})) {
    const declaration = declarations.find((candidate) => candidate.name === name);
    if (declaration === undefined) continue; // A removed declaration has no line to point at; its routes simply disappear.
    for (const [versionName, shape] of Object.entries(versions)) {
      const version = declaration.versions.find((candidate) => candidate.name === versionName);
      const at = ['versions', versionName];
      if (version === undefined) {
        findings.push({ rule: 'published-shape-changed', source: declaration.source, at: ['versions'], message: `version ${versionName} of ${name} is published and can no longer be removed; mark it deprecated instead` });
        continue;
      }
      const diff = diffShapes(shape, shapeOf(version));
      const advice = `published versions do not change: declare the new shape as a new version (v${Number(versionName.slice(1)) + 1}) and keep ${versionName} as it was`;
      for (const path of diff.removed) findings.push({ rule: 'published-shape-changed', source: declaration.source, at, message: `${name} ${versionName} no longer has field ${path}; ${advice}` });
      for (const move of diff.moved) findings.push({ rule: 'published-shape-changed', source: declaration.source, at: accessOf(version, move.to) ?? at, message: `${name} ${versionName} moved field ${move.from} to ${move.to}; ${advice}` });
      for (const path of diff.changed) findings.push({ rule: 'published-shape-changed', source: declaration.source, at: accessOf(version, path) ?? at, message: `${name} ${versionName} changed the type or requiredness of ${path}; ${advice}` });
      for (const path of diff.added) {
        const required = shapeOf(version).find((field) => field.path === path)?.required === true;
        findings.push({
          rule: required ? 'published-shape-changed' : 'published-shape-extended',
          source: declaration.source,
          at: accessOf(version, path) ?? at,
          message: required
            ? `${name} ${versionName} gained the required field ${path}, which breaks its writers; ${advice}`
            : `${name} ${versionName} gained the optional field ${path}; readers of the published version see a new member: consider a new version`,
        });
      }
    }
  }
  return findings;
};
