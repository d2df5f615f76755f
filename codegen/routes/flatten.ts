import {
  defaultIdentifierName,
  type ResolvedCollection,
  type ResolvedModel,
  type ResolvedOperation,
  type ResolvedScopes,
} from '../model/index.ts';
import type { RouteDescriptor, RouteMethod } from './route-descriptor.ts';
import { routesByDeclaration } from './routes-by-declaration.ts';
import { parentPaths, type ParentPath } from './served-under.ts';

const COLLECTION_ROUTES: readonly { method: RouteMethod; item: boolean; list?: true; operation: ResolvedOperation }[] =
  [
    { method: 'GET', item: false, operation: 'list' },
    { method: 'GET', item: false, list: true, operation: 'list' },
    { method: 'POST', item: false, operation: 'create' },
    { method: 'GET', item: true, operation: 'read' },
    { method: 'PUT', item: true, operation: 'replace' },
    { method: 'PATCH', item: true, operation: 'update' },
    { method: 'DELETE', item: true, operation: 'delete' },
  ];

/** A sub-collection's routes below one parent row: its list (both forms), create, and read one. */
const SUB_COLLECTION_ROUTES = [
  { method: 'GET', suffix: '', operation: 'list' },
  { method: 'GET', suffix: '/(list)', operation: 'list' },
  { method: 'POST', suffix: '', operation: 'create' },
  { method: 'GET', suffix: '/:id', operation: 'read' },
] as const;

/** An aggregate's and a setting's routes: they always exist, so GET, PUT and PATCH, and no POST or DELETE. */
const ALWAYS_PRESENT_ROUTES = [
  ['GET', 'read'],
  ['PUT', 'replace'],
  ['PATCH', 'update'],
] as const;

/** Every route of the model, in a stable order: by family, declaration, version, then path and method. */
export function flattenRoutes(model: ResolvedModel): RouteDescriptor[] {
  const routes: RouteDescriptor[] = [];
  const collectionsByName = new Map(model.collections.map((collection) => [collection.name, collection]));
  const parentPathOf = parentPaths(model);
  for (const collection of model.collections) {
    for (const version of collection.versions) {
      routes.push(...collectionRoutes(collection, version.name));
      const under = parentPathOf(collection, version.name);
      if (under !== undefined) routes.push(...subCollectionRoutes(collection, version.name, under));
    }
  }
  for (const aggregate of model.aggregates) {
    const parent = collectionsByName.get(aggregate.parent);
    const parentId = parent?.identifier.name ?? defaultIdentifierName(aggregate.parent);
    for (const version of aggregate.versions) {
      const path = `/${version.name}/${aggregate.parent}/:${parentId}/${aggregate.name}`;
      for (const [method, operation] of ALWAYS_PRESENT_ROUTES) {
        routes.push({
          family: 'resource',
          version: version.name,
          method,
          path,
          handler: { kind: 'aggregate', operation },
          ...scopesOf(partialLikeReplace(aggregate.scopes), method),
          declaration: aggregate.name,
          source: aggregate.source,
        });
      }
    }
  }
  for (const service of model.services) {
    for (const version of service.versions) {
      for (const operation of service.operations) {
        const path = [`/services/${version.name}/${service.name}`, operation.path]
          .filter((part) => part !== '')
          .join('/');
        routes.push({
          family: 'service',
          version: version.name,
          method: operation.method,
          path,
          handler: { kind: 'service', operation: operation.index },
          ...(operation.open === true ? { open: true as const } : {}),
          ...scopesOf(service.scopes, operation.method, operation.scopes),
          declaration: service.name,
          source: service.source,
        });
      }
    }
  }
  for (const setting of model.settings) {
    for (const version of setting.versions) {
      const path = `/settings/${version.name}/${setting.name}`;
      for (const [method, operation] of ALWAYS_PRESENT_ROUTES) {
        routes.push({
          family: 'setting',
          version: version.name,
          method,
          path,
          handler: { kind: 'setting', operation },
          ...scopesOf(partialLikeReplace(setting.scopes), method),
          declaration: setting.name,
          source: setting.source,
        });
      }
    }
  }
  return [...routes, ...movedRoutes(model, routes)];
}

/**
 * The `scopes` member of a route: what the declaration asks of its method, and what the operation
 * itself adds, each scope once; nothing when none is needed.
 */
function scopesOf(
  declared: ResolvedScopes,
  method: RouteMethod,
  own: readonly string[] = [],
): { scopes?: readonly string[] } {
  const scopes = [...new Set([...(declared[method] ?? []), ...own])];
  return scopes.length === 0 ? {} : { scopes };
}

/**
 * An aggregate's or a setting's scopes with PATCH needing what PUT needs when the declaration names
 * no scope of its own for PATCH: a partial update changes what a replace changes, so a declaration
 * written when only PUT wrote keeps guarding every write.
 */
function partialLikeReplace(declared: ResolvedScopes): ResolvedScopes {
  return declared.PATCH === undefined && declared.PUT !== undefined ? { ...declared, PATCH: declared.PUT } : declared;
}

/** The path every route of a declaration starts with, in one version. */
function pathPrefix(family: RouteDescriptor['family'], version: string, name: string): string {
  return family === 'resource'
    ? `/${version}/${name}`
    : `/${family === 'service' ? 'services' : 'settings'}/${version}/${name}`;
}

/**
 * For each former name of a collection, service or setting in a version: its GET routes again at
 * the old prefix, answering 301 to the current path.
 */
function movedRoutes(model: ResolvedModel, served: readonly RouteDescriptor[]): RouteDescriptor[] {
  const moved: RouteDescriptor[] = [];
  const routesOf = routesByDeclaration(served);
  for (const declaration of [...model.collections, ...model.services, ...model.settings]) {
    const family = declaration.kind === 'collection' ? 'resource' : declaration.kind;
    for (const version of declaration.versions) {
      const to = pathPrefix(family, version.name, declaration.name);
      // A sub-collection's paths below its parent are the parent's to move, not its own.
      const gets = routesOf(family, declaration.name, version.name).filter(
        (route) => route.method === 'GET' && (route.path === to || route.path.startsWith(`${to}/`)),
      );
      for (const former of version.movedFrom) {
        const from = pathPrefix(family, version.name, former);
        for (const route of gets) {
          moved.push({ ...route, path: from + route.path.slice(to.length), handler: { kind: 'moved', from, to } });
        }
      }
    }
  }
  return moved;
}

function collectionRoutes(collection: ResolvedCollection, version: string): RouteDescriptor[] {
  const base = `/${version}/${collection.name}`;
  const item = `${base}/:${collection.identifier.name}`;
  const generated = COLLECTION_ROUTES.filter((route) => collection.operations[route.operation] !== 'absent').map(
    (route): RouteDescriptor => ({
      family: 'resource',
      version,
      method: route.method,
      path: route.item ? item : route.list ? `${base}/(list)` : base,
      handler: { kind: 'collection', operation: route.operation },
      ...scopesOf(collection.scopes, route.method),
      declaration: collection.name,
      source: collection.source,
    }),
  );
  // Own operations below one resource: the collection's scopes for the method hold, and the operation's own.
  const own = collection.ownOperations.map((operation): RouteDescriptor => ({
    family: 'resource',
    version,
    method: operation.method,
    path: `${item}/${operation.path}`,
    handler: { kind: 'own', operation: operation.index },
    ...scopesOf(collection.scopes, operation.method, operation.scopes),
    declaration: collection.name,
    source: collection.source,
  }));
  return [...generated, ...own];
}

function subCollectionRoutes(collection: ResolvedCollection, version: string, under: ParentPath): RouteDescriptor[] {
  return SUB_COLLECTION_ROUTES.filter((route) => collection.operations[route.operation] !== 'absent').map(
    (route): RouteDescriptor => ({
      family: 'resource',
      version,
      method: route.method,
      path: `${under.path}${route.suffix.replace(':id', `:${collection.identifier.name}`)}`,
      handler: { kind: 'sub-collection', operation: route.operation },
      ...scopesOf(collection.scopes, route.method),
      declaration: collection.name,
      source: collection.source,
    }),
  );
}
