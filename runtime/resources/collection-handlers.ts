import type { Context } from 'koa';
import { notImplemented } from '../errors/index.ts';
import { answerMinimal, prefersMinimalReturn, requestBody, setJsonBody, setResponseHeader } from '../http/index.ts';
import { collectionUri, expansionRequested, jobUri, resourceUri, resultFields } from '../representation/index.ts';
import { setVersionBody } from '../responses/index.ts';
import {
  allOf,
  andThen,
  runFlow,
  wait,
  type Flow,
  type Maybe,
  type Row,
  type StoreReader,
  type StoreTransaction,
} from '../storage/index.ts';
import { assertMayCreateAt, createsOnPut } from './client-identifiers.ts';
import { createResource } from './create-resource.ts';
import { changeRow, deleteResource } from './change-resource.ts';
import { insertRow } from './row-writes.ts';
import { authOf, callerOf, type Caller } from '../auth/index.ts';
import { operationJobType } from './operation-job-type.ts';
import { refusingQuery, type PathParams, type RouteHandler } from '../routing/index.ts';
import { keyFromPath, resourceNotFound } from './identifiers.ts';
import { parseListQuery, type ListRequest } from './list-query.ts';
import { parentScopeOf, type ParentScope } from './parent-scope.ts';
import type { CollectionModel, OperationName, VersionModel } from './model.ts';
import { setPagingHeaders } from './paging-headers.ts';
import { largestRowWeight, listWithinBudget, rowsWithinBudget } from './page-budget.ts';
import type { PreconditionCheck } from './preconditions.ts';
import { representationNames, representBody } from './represent.ts';
import type { ResourceContext } from './runtime-context.ts';
import { withDeprecation } from '../versions/index.ts';
import { rowsForCaller } from './caller-rows.ts';
import { parseWriteInput, toStored, type WriteMode } from './write-input.ts';

/** The operations a collection serves below one row of its parent (`/v1/pets/3/visits`). */
export type SubCollectionOperation = 'list' | 'create' | 'read';

export type CollectionHandlers = Readonly<Record<OperationName, RouteHandler>> & {
  /** Below one parent row, where the collection declares a parent (parent-scope.ts). */
  readonly underParent?: Readonly<Record<SubCollectionOperation, RouteHandler>>;
};

/** A job queue as an asynchronous operation uses it (runtime/jobs' JobQueue). */
export interface OperationQueue {
  /** Queues a job for `caller` (who sent the request: the job runs as them, and only they know of it). */
  enqueueInternal(
    type: string,
    payload: Record<string, unknown>,
    caller?: Caller,
  ): Maybe<{ readonly job_id: string | number }>;
  representation(job: never, uri: string): Record<string, unknown>;
}

export interface CollectionHandlerOptions {
  /** The job queues by name, for operations the collection declares asynchronous. */
  readonly queues?: ReadonlyMap<string, OperationQueue>;
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
  { preconditions, lastModifiedKey = 'lastModified', queues }: CollectionHandlerOptions = {},
): CollectionHandlers {
  const found = model.versions[versionName];
  if (found === undefined) throw new Error(`${model.name} has no version ${versionName}`);
  const version: VersionModel = found;
  const names = representationNames(model, version);
  const identity = model.identifier.name;
  // Row access: every read and write below goes through it; without row rules it hands back what it is given.
  const rows = rowsForCaller(context.catalog, model);

  // Reads answer at once on SQLite (a value, never a promise) and through promises on PostgreSQL;
  // writes are Flows, synchronous on SQLite too.
  const render = (
    ctx: Context,
    reader: StoreReader,
    row: Row,
    fields: readonly string[] | undefined,
  ): Maybe<Record<string, unknown>> =>
    representBody(
      model,
      version,
      row,
      { baseUrl: context.baseUrl, catalog: context.catalog, reader, expand: expansionRequested(ctx) },
      fields,
    );
  // Every field, references as URIs: what the version's tag is made from (responses/version-tag.ts).
  const canonical = (reader: StoreReader, row: Row): Maybe<Record<string, unknown>> =>
    representBody(
      model,
      version,
      row,
      { baseUrl: context.baseUrl, catalog: context.catalog, reader, expand: false },
      undefined,
    );
  /** Sets the body the request asks for, and, when it is not the canonical one, leaves that for the tag. */
  const answer = <T>(
    ctx: Context,
    fields: readonly string[] | undefined,
    presented: Maybe<T>,
    whole: () => Maybe<T>,
  ): Maybe<void> => {
    if (fields === undefined && !expansionRequested(ctx)) return andThen(presented, (body) => setJsonBody(ctx, body));
    return andThen(whole(), (version) => {
      setVersionBody(ctx, version);
      return andThen(presented, (body) => setJsonBody(ctx, body));
    });
  };

  // Rows large by declaration are read a few at a time, so a page never holds more than its budget.
  const largestRow = largestRowWeight(model.fields);
  /** A page of the rows `query` asks for, as the caller may see them (X-Total-Count, Link). */
  const listPage = (ctx: Context, fields: readonly string[] | undefined, parsed: ListRequest): Maybe<void> => {
    // Only the rows the caller may see are listed and counted (X-Total-Count, Link).
    const visible = rows.visible(callerOf(ctx));
    const query = visible === undefined ? parsed : { ...parsed, visible };
    const reader = rows.reader(callerOf(ctx), context.store);
    return andThen(listWithinBudget(context.store, model.table, query, largestRow), ({ rows: found, total }) => {
      // A page whose values pass MAX_PAGE_BYTES is cut short; Link: next continues after its last row.
      const served = rowsWithinBudget(found);
      const page = served === found.length ? found : found.slice(0, served);
      setPagingHeaders(ctx, context.baseUrl, total, query.limit, query.offset, served);
      return answer(ctx, fields, allOf(page.map((row) => render(ctx, reader, row, fields))), () =>
        allOf(page.map((row) => canonical(reader, row))),
      );
    });
  };
  /** The list at the collection's own path, or (with a scope) below one parent row: its children only. */
  const listIn =
    (scope?: ParentScope): RouteHandler =>
    (ctx, params) => {
      const fields = resultFields(ctx, names);
      const parsed = parseListQuery(ctx, model, version, context);
      if (scope === undefined) return listPage(ctx, fields, parsed);
      return andThen(scope.parentKey(ctx, params), (key) => listPage(ctx, fields, scope.listOf(parsed, key)));
    };

  /** One row, found as the caller may see it; `belongs` narrows it further (a child of another parent is missing). */
  const readOne = (ctx: Context, params: PathParams, belongs?: (row: Row) => boolean): Maybe<void> => {
    const fields = resultFields(ctx, names);
    const key = keyFromPath(model, params[identity]);
    const reader = rows.reader(callerOf(ctx), context.store);
    // A row the caller may not see is found as a missing one is not: the same 404.
    return andThen(reader.find(model.table, key), (row) => {
      if (row === undefined || (belongs !== undefined && !belongs(row))) throw resourceNotFound(model, key);
      ctx.state[lastModifiedKey] = String(row.updated_at);
      return answer(ctx, fields, render(ctx, reader, row, fields), () => canonical(reader, row));
    });
  };
  const readIn =
    (scope?: ParentScope): RouteHandler =>
    (ctx, params) =>
      scope === undefined
        ? readOne(ctx, params)
        : andThen(scope.parentKey(ctx, params), (key) => readOne(ctx, params, (row) => scope.holds(row, key)));

  /** 201 with Location and the conventions' creation result: uri, identity, created_at, links. */
  const answerCreated = (ctx: Context, row: Row) => {
    const uri = resourceUri(context.baseUrl, version.name, model.name, row[identity]);
    ctx.status = 201;
    setResponseHeader(ctx, 'Location', uri);
    setJsonBody(ctx, {
      uri,
      identity: row[identity],
      created_at: row.created_at,
      links: [
        { rel: 'self', href: uri },
        { rel: 'collection', href: collectionUri(context.baseUrl, version.name, model.name) },
      ],
    });
  };

  function* create(ctx: Context, body: unknown): Flow<void> {
    answerCreated(ctx, yield* createResource(context, model, version.name, body, callerOf(ctx), rows));
  }

  /** PUT to an identifier not taken yet, where clients assign them: the resource is created there. */
  function* createAt(ctx: Context, tx: StoreTransaction, key: string | number): Flow<Row> {
    assertMayCreateAt(ctx, model, key);
    const values = parseWriteInput(requestBody(ctx), version, {
      mode: 'replace',
      readOnly: { [identity]: key, created_at: undefined },
      resource: model.name,
    });
    return yield* insertRow(
      { tx, context, caller: authOf(ctx), depth: 0 },
      model,
      { version: version.name, input: values, stored: toStored(version, values) },
      key,
    );
  }
  const putCreates = createsOnPut(model);

  const write = (mode: 'replace' | 'update') =>
    function* writeFlow(ctx: Context, params: PathParams): Flow<void> {
      const fields = resultFields(ctx, names);
      const key = keyFromPath(model, params[identity]);
      let created = false;
      const row = yield* wait(
        context.store.transaction((raw) =>
          runFlow(
            (function* () {
              const tx = rows.reader(callerOf(ctx), raw);
              const current = yield* wait(tx.find(model.table, key));
              // Only a caller who sees every row creates by PUT: to another, an identifier a hidden row holds
              // must answer as a free one, and creating there would overwrite that row, so both are 404.
              if (
                current === undefined &&
                mode === 'replace' &&
                putCreates &&
                rows.visible(callerOf(ctx)) === undefined
              ) {
                created = true;
                return yield* createAt(ctx, tx, key);
              }
              if (current === undefined) throw resourceNotFound(model, key);
              if (preconditions !== undefined) yield* wait(preconditions(ctx, () => canonical(tx, current)));
              rows.assertMayChange(callerOf(ctx), current);
              const changed = yield* changeRow(
                tx,
                context,
                model,
                version.name,
                current,
                requestBody(ctx),
                mode,
                authOf(ctx),
              );
              // Nor may a write leave behind a row the caller could not have changed (giving a note away).
              rows.assertMayChange(callerOf(ctx), changed);
              return changed;
            })(),
          ),
        ),
      );
      if (created) return answerCreated(ctx, row);
      ctx.state[lastModifiedKey] = String(row.updated_at);
      // Prefer: return=minimal: 204, and no representation rendered.
      if (prefersMinimalReturn(ctx)) return answerMinimal(ctx);
      // Tagged as a read is (responses/json-response.ts): from the whole, whatever is presented.
      const reader = rows.reader(callerOf(ctx), context.store);
      yield* wait(answer(ctx, fields, render(ctx, reader, row, fields), () => canonical(reader, row)));
    };

  function* remove(ctx: Context, params: PathParams): Flow<void> {
    const key = keyFromPath(model, params[identity]);
    // May this caller change the row? Asked before If-Match, so a 412 never tells it the row's version.
    yield* deleteResource(
      context,
      model,
      key,
      (tx, current) => {
        rows.assertMayChange(callerOf(ctx), current);
        return preconditions === undefined ? undefined : preconditions(ctx, () => canonical(tx, current));
      },
      { caller: callerOf(ctx), rows },
    );
    ctx.status = 204;
  }

  /**
   * An asynchronous write: checked now as the synchronous one would be (400, 404, 412), carried out
   * by a job; 202 with Location of the job and its state.
   */
  const queued = (operation: 'create' | 'replace' | 'update' | 'delete', queueName: string) =>
    function* queuedFlow(ctx: Context, params: PathParams, sent: unknown = requestBody(ctx)): Flow<void> {
      const queue = queues?.get(queueName);
      if (queue === undefined) throw new Error(`${model.name}: job queue ${queueName} is not running`);
      const body = operation === 'delete' ? undefined : sent;
      let key: string | number | undefined;
      if (operation === 'create') {
        const values = parseWriteInput(body, version, {
          mode: 'create',
          readOnly: { [identity]: undefined, created_at: undefined },
          resource: model.name,
        });
        // A row the caller could not change is refused now (403), not by a job it could then watch fail.
        rows.assertMayChange(callerOf(ctx), toStored(version, values));
      } else {
        key = keyFromPath(model, params[identity]);
        const reader = rows.reader(callerOf(ctx), context.store);
        const current = yield* wait(reader.find(model.table, key));
        if (current === undefined) throw resourceNotFound(model, key);
        rows.assertMayChange(callerOf(ctx), current);
        if (preconditions !== undefined) yield* wait(preconditions(ctx, () => canonical(reader, current)));
        if (operation !== 'delete')
          parseWriteInput(body, version, {
            mode: operation,
            readOnly: { [identity]: key, created_at: current.created_at },
            resource: model.name,
          });
      }
      const payload = {
        version: version.name,
        ...(key === undefined ? {} : { key }),
        ...(body === undefined ? {} : { body }),
      };
      // The caller is kept with the job: the collection's rules judge the write as the caller's.
      const job = yield* wait(queue.enqueueInternal(operationJobType(model.name, operation), payload, authOf(ctx)));
      const uri = jobUri(context.baseUrl, version.name, queueName, job.job_id);
      ctx.status = 202;
      setResponseHeader(ctx, 'Location', uri);
      setJsonBody(ctx, queue.representation(job as never, uri));
    };

  const queuedCreate =
    model.asynchronous?.operations.includes('create') === true ? queued('create', model.asynchronous.queue) : undefined;
  /** POST at the collection's path, or below one parent row with the parent set from the path. */
  const createIn = (scope?: ParentScope) =>
    function* createFlow(ctx: Context, params: PathParams): Flow<void> {
      const body =
        scope === undefined
          ? requestBody(ctx)
          : scope.bodyOf(requestBody(ctx), yield* wait(scope.parentKey(ctx, params)));
      yield* queuedCreate === undefined ? create(ctx, body) : queuedCreate(ctx, params, body);
    };

  const handlers: Record<OperationName, RouteHandler> = {
    list: listIn(),
    read: readIn(),
    create: flowHandler(createIn()),
    replace: flowHandler(write('replace')),
    update: flowHandler(write('update')),
    delete: flowHandler(remove),
  };
  for (const operation of model.asynchronous?.operations ?? [])
    if (operation !== 'create') handlers[operation] = flowHandler(queued(operation, model.asynchronous!.queue));
  const scope = parentScopeOf(context, model);
  const underParent: Record<SubCollectionOperation, RouteHandler> | undefined =
    scope === undefined
      ? undefined
      : { list: listIn(scope), read: readIn(scope), create: flowHandler(createIn(scope)) };
  // Declared but not implemented (501), and a deprecated version's headers, wherever the operation is
  // served; a list alone takes query parameters.
  const served = (operation: OperationName, handler: RouteHandler) => {
    const implemented =
      model.operations[operation] === 'not-implemented' ? notImplementedHandler(model, operation) : handler;
    return withDeprecation(
      operation === 'list' ? implemented : refusingQuery(implemented),
      version.deprecated,
      version.name,
      context.baseUrl,
    );
  };
  for (const operation of Object.keys(handlers) as OperationName[])
    handlers[operation] = served(operation, handlers[operation]);
  if (underParent === undefined) return handlers;
  for (const operation of Object.keys(underParent) as SubCollectionOperation[])
    underParent[operation] = served(operation, underParent[operation]);
  return { ...handlers, underParent };
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
