import type { ResolvedField } from '../../model/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations, removedPublished, type Rule } from './context.ts';
import { PROPERTY, SEGMENT, toProperty } from './naming.ts';

/** A field and every field nested in it, at every depth. */
export function everyField(fields: readonly ResolvedField[]): ResolvedField[] {
  return fields.flatMap((field) => [field, ...everyField(field.fields ?? [])]);
}

/** Stored fields and every version's own shape, each field once. */
function declaredFields(declaration: {
  fields?: readonly ResolvedField[];
  versions: readonly { shaped: boolean; fields: readonly ResolvedField[] }[];
}) {
  return [
    ...everyField(declaration.fields ?? []),
    ...declaration.versions.filter((version) => version.shaped).flatMap((version) => everyField(version.fields)),
  ];
}

/** property-name-case: every property name is lowercase snake_case (fields at every depth, identifiers). */
export const propertyNameCase: Rule = ({ model }) => {
  const findings: Finding[] = [];
  for (const declaration of allDeclarations(model)) {
    const fields = 'fields' in declaration ? declaredFields(declaration) : [];
    for (const field of fields.filter((candidate) => !PROPERTY.test(candidate.name))) {
      findings.push({
        rule: 'property-name-case',
        source: declaration.source,
        at: field.access,
        message: `property "${field.name}" is not lowercase snake_case: name it "${toProperty(field.name) || 'a_name'}"`,
      });
    }
    // A bad collection name gives a bad default identifier; path-segment-case already reports the name.
    if (
      declaration.kind === 'collection' &&
      SEGMENT.test(declaration.name) &&
      !PROPERTY.test(declaration.identifier.name)
    ) {
      findings.push({
        rule: 'property-name-case',
        source: declaration.source,
        at: ['identifier', 'name'],
        message: `identifier "${declaration.identifier.name}" is not lowercase snake_case: name it "${toProperty(declaration.identifier.name)}"`,
      });
    }
  }
  return findings;
};

/** unknown-reference: a reference names a declared collection (one that was published and is gone is published-declaration-removed's finding). */
export const unknownReference: Rule = ({ model, published }) => {
  const collections = new Set(model.collections.map((collection) => collection.name));
  const aggregates = new Set(model.aggregates.map((aggregate) => aggregate.name));
  const removed = removedPublished(model, published);
  return allDeclarations(model).flatMap((declaration) =>
    ('fields' in declaration ? declaredFields(declaration) : [])
      .filter((field) => field.references !== undefined)
      .filter(
        (field) =>
          !collections.has(field.references!) && !aggregates.has(field.references!) && !removed.has(field.references!),
      )
      .map((field) => ({
        rule: 'unknown-reference',
        source: declaration.source,
        at: field.access,
        argument: true,
        message: `field "${field.name}" refers to "${field.references}", which no definition declares; declared collections: ${[...collections].sort().join(', ') || 'none'}`,
      })),
  );
};

/** aggregate-parent: an aggregate is reachable only through its parent collection. */
export const aggregateParent: Rule = ({ model, published }) => {
  const collections = new Map(model.collections.map((collection) => [collection.name, collection]));
  const aggregates = new Map(model.aggregates.map((aggregate) => [aggregate.name, aggregate]));
  const removed = removedPublished(model, published);
  const findings: Finding[] = [];
  for (const aggregate of model.aggregates) {
    if (!collections.has(aggregate.parent) && !aggregates.has(aggregate.parent) && !removed.has(aggregate.parent)) {
      findings.push({
        rule: 'aggregate-parent',
        source: aggregate.source,
        at: ['parent'],
        message: `parent "${aggregate.parent}" of aggregate "${aggregate.name}" is not a declared collection; an aggregate is reached only through its parent: name a collection`,
      });
    }
  }
  for (const declaration of allDeclarations(model)) {
    for (const field of 'fields' in declaration ? declaredFields(declaration) : []) {
      const target = field.references === undefined ? undefined : aggregates.get(field.references);
      if (target === undefined) continue;
      findings.push({
        rule: 'aggregate-parent',
        source: declaration.source,
        at: field.access,
        argument: true,
        message: `field "${field.name}" refers to aggregate "${target.name}", which is reachable only through "${target.parent}": refer to "${target.parent}" instead`,
      });
    }
  }
  return findings;
};

/** version-name and no-versions: every declaration is served under versions named v1, v2, ... */
export const versionNames: Rule = ({ model }) =>
  allDeclarations(model).flatMap((declaration): Finding[] => {
    if (declaration.versions.length === 0) {
      return [
        {
          rule: 'no-versions',
          source: declaration.source,
          at: ['versions'],
          message: `${declaration.kind} "${declaration.name}" declares no version, so nothing serves it: add versions: { v1: {} }`,
        },
      ];
    }
    return declaration.versions
      .filter((version) => !/^v[1-9][0-9]*$/.test(version.name))
      .map((version) => ({
        rule: 'version-name',
        source: declaration.source,
        at: ['versions', version.name],
        message: `version "${version.name}" is not of the form v1, v2, ...: name it "v${version.name.replace(/\D/g, '') || '1'}"`,
      }));
  });
