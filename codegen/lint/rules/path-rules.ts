import { defaultIdentifierName, isPlural, pluralOf } from '../../model/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';
import { SEGMENT, toSegment } from './naming.ts';

/**
 * path-segment-case: no uppercase letters or underscores in a path segment, the one below a resource
 * that a collection's own operation names included (one segment: resources nest two levels at most).
 */
export const pathSegmentCase: Rule = ({ model }) => [
  ...allDeclarations(model).flatMap((declaration): Finding[] =>
    declaration.name
      .split('/')
      .filter((segment) => !SEGMENT.test(segment))
      .map((segment) => ({
        rule: 'path-segment-case',
        source: declaration.source,
        at: ['name'],
        message: `path segment "${segment}" of ${declaration.kind} "${declaration.name}" has uppercase letters, underscores or other characters; paths are lowercase with words joined by hyphens: use "${toSegment(segment) || 'a-name'}"`,
      })),
  ),
  ...model.collections.flatMap((collection): Finding[] =>
    collection.ownOperations
      .filter((operation) => !SEGMENT.test(operation.path) || !isPlural(operation.path))
      .map((operation) => ({
        rule: 'path-segment-case',
        source: collection.source,
        at: ['ownOperations', String(operation.index), 'path'],
        message: `own operation path "${operation.path}" of collection "${collection.name}" is not one plural lowercase segment with words joined by hyphens (it names a sub-resource of one ${collection.singular}, one level below it, as the conventions name collections): use "${pluralOf(toSegment(operation.path) || 'a-name')}"`,
      })),
  ),
];

/** plural-collection: a collection (or aggregate) path names the plural. */
export const pluralCollection: Rule = ({ model }) =>
  [...model.collections, ...model.aggregates]
    .filter((declaration) => SEGMENT.test(declaration.name) && !isPlural(declaration.name))
    .map((declaration) => ({
      rule: 'plural-collection',
      source: declaration.source,
      at: ['name'],
      message: `${declaration.kind} name "${declaration.name}" is not plural; a collection path is the plural name: name it "${pluralOf(declaration.name)}"`,
    }));

/** nesting-depth: resources nest at most two levels; service and setting names at most two segments. */
export const nestingDepth: Rule = ({ model }) => {
  const aggregates = new Set(model.aggregates.map((aggregate) => aggregate.name));
  const nested: Finding[] = model.aggregates
    .filter((aggregate) => aggregates.has(aggregate.parent))
    .map((aggregate) => ({
      rule: 'nesting-depth',
      source: aggregate.source,
      at: ['parent'],
      message: `aggregate "${aggregate.name}" under aggregate "${aggregate.parent}" would nest resources three levels deep; paths nest at most two levels: make it an aggregate of a collection, or turn the deeper condition into a query parameter`,
    }));
  const deepNames: Finding[] = [...model.services, ...model.settings]
    .filter((declaration) => declaration.name.split('/').length > 2)
    .map((declaration) => ({
      rule: 'nesting-depth',
      source: declaration.source,
      at: ['name'],
      message: `${declaration.kind} name "${declaration.name}" has ${declaration.name.split('/').length} levels; paths nest at most two levels: shorten it and pass the rest as query parameters`,
    }));
  // A sub-collection of a sub-collection would be served three levels deep (/v1/owners/1/pets/2/visits).
  const parents = new Map(model.collections.map((collection) => [collection.name, collection]));
  const deepCollections: Finding[] = model.collections.flatMap((collection) => {
    const parent = collection.parent?.collection === undefined ? undefined : parents.get(collection.parent.collection);
    if (parent?.parent === undefined) return [];
    return [
      {
        rule: 'nesting-depth',
        source: collection.source,
        at: ['parent'],
        message: `collection "${collection.name}" below "${parent.name}", itself below "${parent.parent.collection ?? parent.parent.field}", would nest resources three levels deep; paths nest at most two levels: drop "parent" here (filter ${collection.name} by ${collection.parent!.field} instead: /{version}/${collection.name}?${collection.parent!.field}=...), or drop the parent of "${parent.name}"`,
      },
    ];
  });
  return [...nested, ...deepCollections, ...deepNames];
};

/** parent-field: a collection's `parent` names one of its reference fields, the one naming the row it belongs to. */
export const parentField: Rule = ({ model }) =>
  model.collections.flatMap((collection): Finding[] => {
    const declared = collection.parent;
    if (declared === undefined || declared.collection !== undefined) return [];
    const field = collection.fields.find((candidate) => candidate.name === declared.field);
    const references = collection.fields
      .filter((candidate) => candidate.kind === 'reference')
      .map((candidate) => candidate.name);
    const what = field === undefined ? 'which it does not declare' : `a ${field.kind} field, not a reference`;
    const instead =
      references.length === 0
        ? 'declare a reference field to the parent collection and name it'
        : `name one of its reference fields (${references.join(', ')})`;
    return [
      {
        rule: 'parent-field',
        source: collection.source,
        at: ['parent'],
        message: `parent of collection "${collection.name}" names "${declared.field}", ${what}; the parent is the row a reference field names: ${instead}`,
      },
    ];
  });

/**
 * path-identifiers: a sub-collection's identifier is not named as its parent's. Both name a segment of
 * the path its items are served at (/{version}/pets/{pet_id}/visits/{visit_id}), and one name for two
 * would leave the router one value for both.
 */
export const pathIdentifiers: Rule = ({ model }) => {
  const byName = new Map(model.collections.map((collection) => [collection.name, collection]));
  return model.collections.flatMap((collection): Finding[] => {
    const parent = collection.parent?.collection === undefined ? undefined : byName.get(collection.parent.collection);
    const name = collection.identifier.name;
    if (parent === undefined || parent.identifier.name !== name) return [];
    const suggested = defaultIdentifierName(collection.name);
    return [
      {
        rule: 'path-identifiers',
        source: collection.source,
        at: ['identifier', 'name'],
        message: `collection "${collection.name}" names its identifier "${name}", as its parent "${parent.name}" does: its items would be served at /{version}/${parent.name}/{${name}}/${collection.name}/{${name}}, one name for two identifiers: rename it${suggested === name ? '' : ` (${suggested})`}`,
      },
    ];
  });
};

/**
 * reserved-path: with an openapi service declared, /services/{v}/docs is the docs page of its
 * documents (runtime/docs), so no service may be named `docs` or live below it.
 */
export const reservedPath: Rule = ({ model }) => {
  if (!model.services.some((service) => service.handler === 'openapi')) return [];
  return model.services
    .filter((service) => service.name === 'docs' || service.name.startsWith('docs/'))
    .map((service) => ({
      rule: 'reserved-path',
      source: service.source,
      at: ['name'],
      message: `service "${service.name}" would be served at /services/{version}/${service.name}, where the server serves the docs page of the OpenAPI documents: give it another name`,
    }));
};

/** duplicate-path: no two declarations serve the same method and path. */
export const duplicatePath: Rule = ({ routes }) => {
  const firstBySignature = new Map<string, { source: string; declaration: string }>();
  const findings: Finding[] = [];
  const reported = new Set<string>();
  // A former path that collides is moved-path's to report.
  for (const route of routes.filter((candidate) => candidate.handler.kind !== 'moved')) {
    const signature = `${route.method} ${route.path.replace(/:[^/]+/g, ':id')}`;
    const first = firstBySignature.get(signature);
    if (first === undefined) firstBySignature.set(signature, { source: route.source, declaration: route.declaration });
    else if (first.source !== route.source && !reported.has(`${route.source}|${first.source}`)) {
      reported.add(`${route.source}|${first.source}`);
      findings.push({
        rule: 'duplicate-path',
        source: route.source,
        at: ['name'],
        message: `${route.method} ${route.path} is also served by "${first.declaration}" in ${first.source}; every path names one resource: rename one of them`,
      });
    }
  }
  return findings;
};
