import type { Context } from 'koa';
import { notImplemented } from '../errors/index.ts';
import { requestBody, setJsonBody } from '../http/index.ts';
import { collectionUri, expansionRequested, project, resourceUri, resultFields, stripNulls } from '../representation/index.ts';
import { allOf, andThen, runFlow, wait, type Flow, type Maybe, type Row, type StoreReader } from '../storage/index.ts';
import type { PathParams, RouteHandler } from '../routing/index.ts';
import { keyFromPath, resourceNotFound } from './identifiers.ts';
import { parseListQuery } from './list-query.ts';
import type { CollectionModel, OperationName, VersionModel } from './model.ts';
import { setPagingHeaders } from './paging-headers.ts';
import type { PreconditionCheck } from './preconditions.ts';
import { representationNames, representRow } from './represent.ts';
import type { ResourceContext } from './runtime-context.ts';
import { prepareDelete, prepareStoredValues } from './write-checks.ts';
import { withDeprecation } from '../versions/index.ts';
import { clearedFields, parseWriteInput, toStored, type WriteMode } from './write-input.ts';

export type CollectionHandlers = Readonly<Record<OperationName, RouteHandler>>;

export interface CollectionHandlerOptions {
  /** If-Match and friends, checked in the write's transaction. Default: none. */
  readonly preconditions?: PreconditionCheck;
  /** Key under ctx.state where a read leaves the resource's last change, for Last-Modified. */
  readonly lastModifiedKey?: string;
}

/**
 * The handlers of one collection in one version: list, read, create, replace (PUT), update (PATCH)
 * and delete, following the conventions' resource paths. An operation the definition marks
 * not-implemented answers 501.
 */
export function collectionHandlers(
  context: ResourceContext,
  model: CollectionModel,
  versionName: string,
  { preconditions, lastModifiedKey = 'lastModified' }: CollectionHandlerOptions = {},
): CollectionHandlers {
  const found = model.versions[versionName];
  if (found === undefined) throw new Error(`${model.name} has no version ${versionName}`);
  const version: VersionModel = found;
  const names = representationNames(model, version);
  const identity = model.identifier.name;

  // Reads answer at once on SQLite (a value, never a promise) and through promises on PostgreSQL;
  // writes are Flows, synchronous on SQLite too.
  const render = (ctx: Context, reader: StoreReader, row: Row, fields: readonly string[] | undefined): Maybe<Record<string, unknown>> =>
    andThen(representRow(model, version, row, { baseUrl: context.baseUrl, catalog: context.catalog, reader, expand: expansionRequested(ctx) }), (representation) =>
      stripNulls(project(representation, fields)),
    );

  const list: RouteHandler = (ctx) => {
    const fields = resultFields(ctx, names);
    const query = parseListQuery(ctx, model, version, context);
    return andThen(context.store.list(model.table, query), ({ rows, total }) => {
      setPagingHeaders(ctx, context.baseUrl, total, query.limit, query.offset);
      return andThen(allOf(rows.map((row) => render(ctx, context.store, row, fields))), (body) => setJsonBody(ctx, body));
    });
  };

  const read: RouteHandler = (ctx, params) => {
    const fields = resultFields(ctx, names);
    const key = keyFromPath(model, params[identity]);
    return andThen(context.store.find(model.table, key), (row) => {
      if (row === undefined) throw resourceNotFound(model, key);
      ctx.state[lastModifiedKey] = String(row.updated_at);
      return andThen(render(ctx, context.store, row, fields), (body) => setJsonBody(ctx, body));
    });
  };

  function* create(ctx: Context): Flow<void> {
    const values = parseWriteInput(requestBody(ctx), version, { mode: 'create', readOnly: { [identity]: undefined, created_at: undefined }, resource: model.name });
    const row = yield* wait(
      context.store.transaction((tx) =>
        runFlow(
          (function* () {
            const prepared = yield* prepareStoredValues(tx, context, model, toStored(version, values), undefined);
            return yield* wait(tx.insert(model.table, prepared));
          })(),
        ),
      ),
    );
    const uri = resourceUri(context.baseUrl, version.name, model.name, row[identity]);
    ctx.status = 201;
    ctx.set('Location', uri);
    setJsonBody(ctx, {
      uri,
      identity: row[identity],
      created_at: row.created_at,
      links: [
        { rel: 'self', href: uri },
        { rel: 'collection', href: collectionUri(context.baseUrl, version.name, model.name) },
      ],
    });
  }

  const write = (mode: WriteMode) =>
    function* writeFlow(ctx: Context, params: PathParams): Flow<void> {
      const fields = resultFields(ctx, names);
      const key = keyFromPath(model, params[identity]);
      const row = yield* wait(
        context.store.transaction((tx) =>
          runFlow(
            (function* () {
              const current = yield* wait(tx.find(model.table, key));
              if (current === undefined) throw resourceNotFound(model, key);
              if (preconditions !== undefined) yield* wait(preconditions(ctx, () => render(ctx, tx, current, fields)));
              const readOnly = { [identity]: current[identity], created_at: current.created_at };
              const values = parseWriteInput(requestBody(ctx), version, { mode, readOnly, resource: model.name });
              const stored = mode === 'replace' ? { ...clearedFields(model), ...toStored(version, values) } : toStored(version, values);
              const prepared = yield* prepareStoredValues(tx, context, model, stored, key);
              return yield* wait(tx.update(model.table, key, prepared));
            })(),
          ),
        ),
      );
      ctx.state[lastModifiedKey] = String(row.updated_at);
      setJsonBody(ctx, yield* wait(render(ctx, context.store, row, fields)));
    };

  function* remove(ctx: Context, params: PathParams): Flow<void> {
    const key = keyFromPath(model, params[identity]);
    yield* wait(
      context.store.transaction((tx) =>
        runFlow(
          (function* () {
            const current = yield* wait(tx.find(model.table, key));
            if (current === undefined) throw resourceNotFound(model, key);
            if (preconditions !== undefined) yield* wait(preconditions(ctx, () => render(ctx, tx, current, undefined)));
            yield* prepareDelete(tx, context, model, key);
            yield* wait(tx.remove(model.table, key));
          })(),
        ),
      ),
    );
    ctx.status = 204;
  }

  const handlers: Record<OperationName, RouteHandler> = {
    list,
    read,
    create: flowHandler(create),
    replace: flowHandler(write('replace')),
    update: flowHandler(write('update')),
    delete: flowHandler(remove),
  };
  for (const operation of Object.keys(handlers) as OperationName[]) {
    if (model.operations[operation] === 'not-implemented') handlers[operation] = notImplementedHandler(model, operation);
    handlers[operation] = withDeprecation(handlers[operation], version.deprecated, version.name, context.baseUrl);
  }
  return handlers;
}

/** A handler written as a Flow, served as a route handler: synchronous on SQLite, a promise on PostgreSQL. */
export function flowHandler(flow: (ctx: Context, params: PathParams) => Flow<void>): RouteHandler {
  return (ctx, params) => runFlow(flow(ctx, params));
}

function notImplementedHandler(model: CollectionModel, operation: OperationName): RouteHandler {
  return (_ctx: Context, _params: PathParams) => {
    throw notImplemented(`${operation} of ${model.name} is declared but not implemented yet`, { resource: model.name });
  };
}

