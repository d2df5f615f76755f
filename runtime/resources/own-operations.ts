import type { Context } from 'koa';
import type { Caller } from '../auth/index.ts';
import { callerOf } from '../auth/index.ts';
import { setJsonBody, setResponseHeader } from '../http/index.ts';
import { expansionRequested, resourceUri, resultFields } from '../representation/index.ts';
import { setVersionBody, versionTagOf } from '../responses/index.ts';
import { andThen, runFlow, type Flow, type Maybe, type Row } from '../storage/index.ts';
import { rowsForCaller } from './caller-rows.ts';
import type { CollectionModel } from './model.ts';
import { representationNames, representBody } from './represent.ts';
import { dataAccess, type WriteScope } from './row-writes.ts';
import type { ResourceContext } from './runtime-context.ts';
import { isGenerator } from './write-rules.ts';

/** The data access a hand-written operation is given (the DSL's DataAccess). */
export type OperationData = ReturnType<typeof dataAccess>;

/**
 * Calls a hand-written operation with its data access and, when it is a generator function, drives
 * it inside one transaction of the store: every read and write through `data` is in it, as the caller
 * (its row access, and the rules and effects of each collection it writes), kept when the handler
 * returns and dropped when it throws, on SQLite (synchronously: its transaction cannot wait) and
 * PostgreSQL alike. The handler is called before the transaction opens, since a generator function
 * runs nothing of its body until driven; `data` is bound to the transaction when that starts. A
 * plain or async handler is answered as it is, with no transaction (it cannot yield* an access).
 */
export function runOwnOperation<T>(
  context: ResourceContext,
  caller: Caller | undefined,
  handle: (data: OperationData) => T | Flow<T> | Promise<T>,
): T | Maybe<T> | Promise<T> {
  let scope: WriteScope | undefined;
  const bound = (): WriteScope => {
    if (scope === undefined)
      throw new TypeError(
        'data is used outside its transaction: write the handler as a generator function (function*) and yield* each access',
      );
    return scope;
  };
  const data: OperationData = {
    of: (collection, options) => dataAccess(bound()).of(collection, options),
    enqueue: (queue, type, payload) => dataAccess(bound()).enqueue(queue, type, payload),
  };
  const answer = handle(data);
  if (!isGenerator(answer)) return answer as T | Promise<T>;
  return context.store.transaction((tx) => {
    scope = { tx, context, caller, depth: 0 };
    return runFlow(answer as Flow<T>);
  });
}

/**
 * One collection through an operation's data access, as the caller, resolved at each call: usable
 * from the handler's body once its transaction runs (the request carries it before that).
 */
export function collectionThrough(data: OperationData, name: string) {
  const of = () => data.of(name);
  return {
    read: (key: string | number) => of().read(key),
    get: (key: string | number) => of().get(key),
    list: (query?: Parameters<ReturnType<typeof of>['list']>[0]) => of().list(query),
    create: (values: Record<string, unknown>) => of().create(values),
    update: (key: string | number, values: Record<string, unknown>) => of().update(key, values),
    replace: (key: string | number, values: Record<string, unknown>) => of().replace(key, values),
    delete: (key: string | number) => of().delete(key),
  };
}

/**
 * A row of `model` as the response, the way GET of it presents it: the request's version, the members
 * X-Result-Fields names, references inlined with X-Expansion-Fields (each as the caller may see it),
 * nulls left out; ETag (and the conventions' E-Tag) of the whole resource, whatever is presented, so
 * If-Match takes it. `presentation` is what requestedPresentation() read of the request, before the
 * operation ran.
 */
export function answerResource(
  ctx: Context,
  context: ResourceContext,
  model: CollectionModel,
  versionName: string,
  row: Row,
  status: number,
  { fields, expand }: Presentation,
): Maybe<void> {
  const version = versionOf(model, versionName);
  const reader = rowsForCaller(context.catalog, model).reader(callerOf(ctx), context.store);
  const options = { baseUrl: context.baseUrl, catalog: context.catalog, reader, expand: false };
  return andThen(representBody(model, version, row, options, undefined), (whole) => {
    const tag = versionTagOf(whole);
    ctx.status = status;
    // A resource made by the operation is found where POST's would be: Location names it.
    if (status === 201)
      setResponseHeader(
        ctx,
        'Location',
        resourceUri(context.baseUrl, versionName, model.name, row[model.identifier.name]),
      );
    setVersionBody(ctx, whole);
    setResponseHeader(ctx, 'ETag', tag);
    setResponseHeader(ctx, 'E-Tag', tag);
    if (fields === undefined && !expand) return setJsonBody(ctx, whole);
    return andThen(representBody(model, version, row, { ...options, expand }, fields), (body) =>
      setJsonBody(ctx, body),
    );
  });
}

/** The members X-Result-Fields names (all when undefined), and whether X-Expansion-Fields inlines references. */
export interface Presentation {
  readonly fields: string[] | undefined;
  readonly expand: boolean;
}

/**
 * What X-Result-Fields and X-Expansion-Fields ask of a resource of `model` (400 for a name it does not
 * have, or an expansion flag that is neither true nor false). An operation that answers a resource
 * reads them before it runs, so that a refused header never follows a committed write.
 */
export function requestedPresentation(ctx: Context, model: CollectionModel, versionName: string): Presentation {
  return {
    fields: resultFields(ctx, representationNames(model, versionOf(model, versionName))),
    expand: expansionRequested(ctx),
  };
}

function versionOf(model: CollectionModel, versionName: string) {
  const version = model.versions[versionName];
  if (version === undefined) throw new Error(`${model.name} has no version ${versionName}`);
  return version;
}
