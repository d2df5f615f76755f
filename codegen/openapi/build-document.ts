import type { ResolvedModel } from '../model/index.ts';
import { parentPaths, type RouteDescriptor } from '../routes/index.ts';
import {
  creationResultSchema,
  ERROR_ENTRY_SCHEMA,
  ERROR_SCHEMA,
  HEADERS,
  JOB_SCHEMA,
  PARAMETERS,
  AUTHENTICATED,
  SECURITY_SCHEMES,
} from './components.ts';
import { DEFAULT_SERVER, documentInfo } from './info.ts';
import { jobBodySchemas } from './job-schemas.ts';
import { searchHitSchemas } from './search-hit.ts';
import { withExamples } from './parameter-examples.ts';
import type { OperationSpec } from './operation-spec.ts';
import {
  readRepresentation,
  representationName,
  singularNames,
  writeRepresentation,
  type DeclarationOf,
} from './representation-schemas.ts';
import {
  aggregateOperation,
  collectionOperation,
  identifierParameters,
  settingOperation,
} from './resource-operations.ts';
import { errorResponses } from './responses.ts';
import type { JsonSchema } from './schema-of.ts';
import { serviceOperation } from './service-operations.ts';
import { resourceOwnOperation } from './own-operation.ts';
import { belowParentWrite, belowParentWriteName, subCollectionOperation } from './sub-collection-operation.ts';
import { LINK_SCHEMA, movedOperation } from './statuses.ts';
import { writeHeadOperation, writeOperation, writeOptionsOperation } from './write-operation.ts';

/**
 * One OpenAPI 3.1 document for one version, built from the same resolved model and route list the
 * server is generated from: every path of the three families with every method the server answers
 * on it (HEAD and OPTIONS included), every status each operation can answer and only those, the
 * headers really sent, named component schemas (zod 4's JSON Schema for fields), a stable
 * operationId, a tag per declaration and descriptions from the definitions.
 */
export function buildOpenApiDocument(
  model: ResolvedModel,
  routes: readonly RouteDescriptor[],
  version: string,
  declarationOf: DeclarationOf,
): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tags = new Map<string, string>();
  const byPath = new Map<string, { route: RouteDescriptor; spec: OperationSpec }[]>();
  const declarationOfRoute = declarationsByRoute(model);
  const identifiers = identifierParameters(model);
  const sharedParameters: Record<string, JsonSchema> = { ...PARAMETERS, ...identifiers };
  for (const route of routes.filter((candidate) => candidate.version === version)) {
    const path = route.path.replace(/:([a-z0-9_]+)/g, '{$1}');
    const spec = withScopes(operationOf(route, model, version, declarationOf, identifiers), route.scopes);
    const operations = byPath.get(path);
    if (operations === undefined) byPath.set(path, [{ route, spec }]);
    else operations.push({ route, spec });
    tags.set(spec.tag, descriptionOf(declarationOfRoute(route), route));
  }
  for (const [path, operations] of byPath) {
    const item: Record<string, JsonSchema> = {};
    for (const { route, spec } of operations) {
      const deprecated = isDeprecated(declarationOfRoute(route), route);
      item[route.method.toLowerCase()] = writeOperation(spec, deprecated);
      if (route.method === 'GET') item.head = writeHeadOperation(spec, deprecated);
    }
    const first = operations[0]!;
    // A former path's OPTIONS is deprecated with it, without the headers of a deprecated version.
    const deprecation = isDeprecated(declarationOfRoute(first.route), first.route)
      ? 'version'
      : first.spec.deprecated === true
        ? 'path'
        : undefined;
    item.options = writeOptionsOperation(
      path,
      first.spec.tag,
      operations.map(({ route }) => route.method),
      deprecation,
      pathParametersOf(
        operations.flatMap(({ spec }) => spec.parameters),
        sharedParameters,
      ),
    );
    paths[path] = item;
  }

  const schemas = schemasOf(model, version, declarationOf);
  const examples = withExamples(paths, schemas, sharedParameters);
  const document = {
    openapi: '3.1.0',
    info: documentInfo(model, version, declarationOf),
    servers: [DEFAULT_SERVER],
    security: AUTHENTICATED,
    tags: [...tags].sort(([a], [b]) => a.localeCompare(b)).map(([name, description]) => ({ name, description })),
    paths: examples.paths,
    components: {
      schemas,
      securitySchemes: SECURITY_SCHEMES,
      parameters: examples.parameters,
      headers: HEADERS,
      responses: {} as Record<string, JsonSchema>,
    },
  };
  return withUsedComponents(document);
}

/** The path parameters among an operation's parameters, by name: each as the operation has it (often a reference). */
function pathParametersOf(
  parameters: readonly JsonSchema[],
  shared: Record<string, JsonSchema>,
): Map<string, JsonSchema> {
  const byName = new Map<string, JsonSchema>();
  for (const parameter of parameters) {
    const resolved =
      typeof parameter.$ref === 'string' ? shared[parameter.$ref.replace('#/components/parameters/', '')] : parameter;
    if (resolved?.in === 'path' && typeof resolved.name === 'string' && !byName.has(resolved.name))
      byName.set(resolved.name, parameter);
  }
  return byName;
}

function operationOf(
  route: RouteDescriptor,
  model: ResolvedModel,
  version: string,
  declarationOf: DeclarationOf,
  identifiers: Readonly<Record<string, JsonSchema>>,
): OperationSpec {
  switch (route.handler.kind) {
    case 'collection':
      return collectionOperation(route as RouteDescriptor & { handler: { kind: 'collection' } }, model, version);
    case 'sub-collection':
      return subCollectionOperation(route as RouteDescriptor & { handler: { kind: 'sub-collection' } }, model, version);
    case 'aggregate':
      return aggregateOperation(route as RouteDescriptor & { handler: { kind: 'aggregate' } }, model, version);
    case 'setting':
      return settingOperation(route as RouteDescriptor & { handler: { kind: 'setting' } }, model, version);
    case 'service':
      return serviceOperation(
        route as RouteDescriptor & { handler: { kind: 'service' } },
        model,
        version,
        declarationOf,
      );
    case 'own':
      return resourceOwnOperation(
        route as RouteDescriptor & { handler: { kind: 'own' } },
        model,
        version,
        declarationOf,
      );
    case 'moved':
      return movedOperation(route as RouteDescriptor & { handler: { kind: 'moved' } }, identifiers);
  }
}

/** The operation with the scopes its route needs, said in its description too (what documentation pages show). */
function withScopes(spec: OperationSpec, scopes: readonly string[] | undefined): OperationSpec {
  if (scopes === undefined) return spec;
  const needs = `Needs the scope${scopes.length === 1 ? '' : 's'} ${scopes.map((scope) => `\`${scope}\``).join(', ')}: a token without ${scopes.length === 1 ? 'it' : 'all of them'} gets 403 insufficient_scope.`;
  return { ...spec, scopes, description: `${spec.description}\n\n${needs}` };
}

/** Every named schema of this version: the error body, the creation result, jobs, and each representation. */
function schemasOf(model: ResolvedModel, version: string, declarationOf: DeclarationOf): Record<string, JsonSchema> {
  const names = singularNames(model.collections);
  const parentPathOf = parentPaths(model);
  const schemas: Record<string, JsonSchema> = {
    Error: ERROR_SCHEMA,
    ErrorEntry: ERROR_ENTRY_SCHEMA,
    Job: JOB_SCHEMA,
    Link: LINK_SCHEMA,
    ...jobBodySchemas(model, version, declarationOf),
    ...searchHitSchemas(model, version),
  };
  for (const collection of model.collections) {
    const found = collection.versions.find((candidate) => candidate.name === version);
    if (found === undefined) continue;
    const declaration = declarationOf(collection.source);
    const name = representationName(collection.singular, version);
    schemas[name] = readRepresentation(
      found.fields,
      declaration,
      found,
      names,
      collection.identifier,
      collection.description,
    );
    const write = writeRepresentation(found.fields, declaration, 'complete', names);
    schemas[`${name}Write`] = write;
    const under = parentPathOf(collection, version);
    if (under !== undefined)
      schemas[belowParentWriteName(name, under.parent.singular)] = belowParentWrite(
        write,
        under.field,
        under.parent.singular,
      );
    schemas[`${name}Patch`] = writeRepresentation(found.fields, declaration, 'partial', names);
    schemas[`${name}Created`] = creationResultSchema(collection.singular, collection.identifier.type);
  }
  for (const declaration of [...model.aggregates, ...model.settings]) {
    const found = declaration.versions.find((candidate) => candidate.name === version);
    if (found === undefined) continue;
    const source = declarationOf(declaration.source);
    const name = representationName(declaration.name, version);
    schemas[name] = readRepresentation(found.fields, source, found, names, undefined, declaration.description);
    schemas[`${name}Write`] = writeRepresentation(found.fields, source, 'complete', names);
    schemas[`${name}Patch`] = writeRepresentation(found.fields, source, 'partial', names);
  }
  return schemas;
}

type ServingDeclaration = ResolvedModel['collections' | 'aggregates' | 'services' | 'settings'][number];

/** The declaration serving a route, found through a map made once (a scan per route is quadratic in a large project). */
function declarationsByRoute(model: ResolvedModel): (route: RouteDescriptor) => ServingDeclaration | undefined {
  const key = (name: string, source: string) => `${source}\0${name}`;
  const declarations = new Map<string, ServingDeclaration>();
  for (const declaration of [...model.collections, ...model.aggregates, ...model.services, ...model.settings])
    declarations.set(key(declaration.name, declaration.source), declaration);
  return (route) => declarations.get(key(route.declaration, route.source));
}

/** The tag of a declaration says what the definition's doc comment (or `description`) says. */
function descriptionOf(declaration: ServingDeclaration | undefined, route: RouteDescriptor): string {
  return (
    declaration?.description ?? `The ${route.declaration} ${route.family === 'resource' ? 'resource' : route.family}.`
  );
}

/** Whether the declaration serving a route marks this route's version deprecated. */
function isDeprecated(declaration: ServingDeclaration | undefined, route: RouteDescriptor): boolean {
  return declaration?.versions.find((version) => version.name === route.version)?.deprecated !== undefined;
}

/**
 * Every `$ref` into components a node holds, at any depth. A plain walk with `for...in` (no arrays of
 * entries made per object): a document of 1,000 collections has millions of members, and this is
 * four times faster than reading the references from the node's JSON text.
 */
function referencesIn(node: unknown): string[] {
  const references: string[] = [];
  const visit = (value: object) => {
    if (Array.isArray(value)) {
      for (const item of value as unknown[]) if (typeof item === 'object' && item !== null) visit(item);
      return;
    }
    for (const key in value) {
      const member = (value as Record<string, unknown>)[key];
      if (typeof member === 'object' && member !== null) visit(member);
      else if (key === '$ref' && typeof member === 'string' && member.startsWith('#/components/'))
        references.push(member);
    }
  };
  if (typeof node === 'object' && node !== null) visit(node);
  return references;
}

/**
 * Keeps only the shared responses, headers, parameters and schemas something refers to: a component
 * nothing uses is noise to a reader and a warning to every linter.
 */
function withUsedComponents<T extends { paths: unknown; components: Record<string, Record<string, JsonSchema>> }>(
  document: T,
): T {
  const all: Record<string, Record<string, JsonSchema>> = { ...document.components, responses: errorResponses() };
  const used = new Set<string>();
  const pending = [...referencesIn(document.paths)];
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    if (used.has(ref)) continue;
    used.add(ref);
    const [, , kind, name] = ref.split('/');
    const target = all[kind!]?.[name!];
    if (target !== undefined) pending.push(...referencesIn(target));
  }
  const components = Object.fromEntries(
    Object.entries(all).map(([kind, entries]) => [
      kind,
      kind === 'securitySchemes'
        ? entries
        : Object.fromEntries(Object.entries(entries).filter(([name]) => used.has(`#/components/${kind}/${name}`))),
    ]),
  );
  return { ...document, components };
}
