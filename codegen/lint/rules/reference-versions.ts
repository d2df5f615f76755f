import type { ResolvedModel } from '../../model/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';
import { everyField } from './resource-rules.ts';

/**
 * reference-version: a version that references a collection serves the reference at that version's
 * path (`/v2/pets/1`), so the collection must be served in that version too; otherwise the link
 * answers 404, expansion finds nothing and the OpenAPI document names a schema it does not have.
 * One finding per field, listing every version that lacks the target.
 */
export const referenceVersion: Rule = ({ model }) => {
  const servedIn = new Map(
    model.collections.map((collection) => [collection.name, collection.versions.map((version) => version.name)]),
  );
  const findings = new Map<
    string,
    Finding & { readonly missing: string[]; readonly target: string; readonly field: string }
  >();
  for (const declaration of allDeclarations(model)) {
    if (!('fields' in declaration)) continue;
    for (const version of declaration.versions) {
      for (const field of everyField(version.fields)) {
        // A reference, or an array of references (which names its items' collection too).
        if (field.references === undefined) continue;
        const served = servedIn.get(field.references);
        // An undeclared target is unknown-reference's finding.
        if (served === undefined || served.includes(version.name)) continue;
        const key = `${declaration.source}\0${field.access.join('.')}`;
        const found = findings.get(key);
        if (found !== undefined) found.missing.push(version.name);
        else
          findings.set(key, {
            rule: 'reference-version',
            source: declaration.source,
            at: field.access,
            message: '',
            missing: [version.name],
            target: field.references,
            field: field.name,
          });
      }
    }
  }
  return [...findings.values()].map(({ missing, target, field, ...finding }) => ({
    ...finding,
    message: messageOf(model, field, target, missing),
  }));
};

function messageOf(model: ResolvedModel, field: string, target: string, missing: readonly string[]): string {
  const served =
    model.collections.find((collection) => collection.name === target)?.versions.map((version) => version.name) ?? [];
  const versions = missing.join(' and ');
  const where = served.length === 0 ? 'in no version' : `only in ${served.join(', ')}`;
  return `field "${field}" refers to "${target}" in ${versions}, but "${target}" is served ${where}: its links there would answer 404; serve "${target}" in ${versions} too, or give ${versions} a shape without "${field}"`;
}
