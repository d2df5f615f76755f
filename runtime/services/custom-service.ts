import type { Context } from 'koa';
import { ZodObject, type ZodType } from 'zod';
import { PROCESSING_AFTER_STATE, requestBody, setResponseHeader } from '../http/index.ts';
import {
  answerResource,
  requestedPresentation,
  collectionThrough,
  invalidInput,
  keyFromPath,
  runOwnOperation,
  zodProblems,
  type CollectionModel,
  type OperationData,
} from '../resources/index.ts';
import type { PathParams, RouteHandler } from '../routing/index.ts';
import { repeatedParameter } from '../errors/index.ts';
import type { ApiContext, ServiceTools } from './api-definition.ts';
import { callerOf, type Caller } from '../auth/index.ts';
import { withDeprecation } from '../versions/index.ts';

/** What a hand-written operation answers (the DSL's ServiceResponse). */
interface OperationAnswer {
  status?: number;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  /** A row of the collection the operation answers, sent as its resource. */
  resource?: Readonly<Record<string, unknown>>;
}

/** A custom service operation as a definition declares it. */
export interface CustomOperationSpec {
  readonly method: string;
  /** After how many ms of work the first 102 Processing is sent (default: the server's PROCESSING_AFTER_MS). */
  readonly processingAfterMs?: number;
  readonly query?: ZodObject;
  readonly body?: ZodType;
  /** The collection whose resource the handler answers (its declaration, or its name). */
  readonly answers?: string | { readonly name: string };
  readonly handle: (request: {
    version: string;
    query: any;
    body: any;
    params: PathParams;
    caller: Caller | undefined;
    tools: ServiceTools;
    data: OperationData;
  }) => unknown;
}

/**
 * A collection's own operation below one resource, as its definition declares it: a custom operation
 * whose request also has `key` (the resource's identifier) and `collection` (its collection through
 * `data`), each typed by the definition's fields (the DSL's ResourceOperationRequest).
 */
export type ResourceOperationSpec = Omit<CustomOperationSpec, 'handle'> & {
  readonly handle: (request: any) => unknown;
};

/** What the handler is told besides the request: where it runs, below one resource or on a service path. */
interface OperationPlace {
  readonly version: string;
  /** The service's or the collection's name: the `resource` of its errors. */
  readonly resource: string;
  /** The collection of the resource the operation is below (own operations of a collection). */
  readonly below?: CollectionModel;
}

/**
 * Serves one operation a definition wrote itself: validates the query string and the body with the
 * declared schemas (400 naming the field), calls the handler (one written as a generator function in
 * one transaction of the store, with the data access as the caller: resources/own-operations.ts),
 * and sends what it answers: its body, or the resource it answers as GET would present it.
 */
export function customOperationHandler(
  operation: CustomOperationSpec,
  version: string,
  context: ApiContext,
  resource: string,
): RouteHandler {
  return operationHandler(operation, context, { version, resource });
}

/**
 * The handlers of a collection's own operations below one resource, in declaration order: each as
 * customOperationHandler serves a service's, told the resource's identifier (as its path names it:
 * 404 for one the collection cannot have) and given its collection through the data access; one that
 * declares no `answers` answers a resource of this collection.
 */
export function resourceOperationHandlers(
  context: ApiContext,
  definition: { readonly ownOperations?: readonly ResourceOperationSpec[] },
  model: CollectionModel,
  version: string,
): RouteHandler[] {
  const deprecation = model.versions[version]?.deprecated;
  return (definition.ownOperations ?? []).map((operation) =>
    withDeprecation(
      operationHandler({ ...operation, answers: operation.answers ?? model.name }, context, {
        version,
        resource: model.name,
        below: model,
      }),
      deprecation,
      version,
      context.baseUrl,
    ),
  );
}

function operationHandler(
  operation: CustomOperationSpec | ResourceOperationSpec,
  context: ApiContext,
  place: OperationPlace,
): RouteHandler {
  const { version, resource, below } = place;
  const answers = answeredCollection(operation, context, resource);
  // A member the body's object schema does not declare is refused (unknown_field), not silently dropped.
  const bodySchema = operation.body instanceof ZodObject ? operation.body.strict() : operation.body;
  return async (ctx: Context, params: PathParams) => {
    if (operation.processingAfterMs !== undefined)
      (ctx.state as Record<symbol, unknown>)[PROCESSING_AFTER_STATE] = operation.processingAfterMs;
    const key = below === undefined ? undefined : keyFromPath(below, params[below.identifier.name]);
    const query = validateQuery(operation.query, queryOf(ctx.querystring), resource);
    const body = validate(bodySchema, requestBody(ctx), resource);
    // Before the operation runs: a header refused after its transaction committed would leave the write.
    const presentation = answers === undefined ? undefined : requestedPresentation(ctx, answers, version);
    const caller = callerOf(ctx);
    const answer = (await runOwnOperation(context, caller, (data) =>
      operation.handle({
        version,
        query,
        body,
        params,
        caller,
        tools: context.tools,
        data,
        ...(below === undefined ? {} : { key, collection: collectionThrough(data, below.name) }),
      }),
    )) as OperationAnswer;
    for (const [name, value] of Object.entries(answer.headers ?? {})) setResponseHeader(ctx, name, value);
    if (answer.resource !== undefined) {
      if (answers === undefined || presentation === undefined)
        throw new TypeError(`an operation of ${resource} answered a resource but declares no collection it answers`);
      return answerResource(ctx, context, answers, version, answer.resource, answer.status ?? 200, presentation);
    }
    ctx.status = answer.status ?? (answer.body === undefined ? 204 : 200);
    if (answer.body !== undefined) ctx.body = answer.body;
  };
}

function answeredCollection(
  operation: CustomOperationSpec,
  context: ApiContext,
  resource: string,
): CollectionModel | undefined {
  if (operation.answers === undefined) return undefined;
  const name = typeof operation.answers === 'string' ? operation.answers : operation.answers.name;
  const model = Object.hasOwn(context.catalog.collections, name) ? context.catalog.collections[name] : undefined;
  if (model === undefined) throw new Error(`an operation of ${resource} answers ${name}, which is no collection`);
  return model;
}

function validate(schema: ZodType | undefined, value: unknown, resource: string): unknown {
  if (schema === undefined) return value;
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  throw invalidInput(zodProblems(parsed.error, resource, value ?? {}));
}

/** The query's parameters by name. One given twice is refused (400 repeated_parameter), as a list refuses it. */
function queryOf(querystring: string): Record<string, string> {
  const query = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(querystring)) {
    if (query.has(name)) throw repeatedParameter(name);
    query.set(name, value);
  }
  // Own members, whatever their names (`__proto__` included), as the handler's query object.
  return Object.fromEntries(query);
}

/**
 * The query as the operation's schema reads it: as validate(), but a name a strict schema does not
 * declare is a parameter, refused as a list refuses one (unknown_parameter), not a body's member.
 */
function validateQuery(schema: ZodType | undefined, value: Record<string, string>, resource: string): unknown {
  if (schema === undefined) return value;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw invalidInput(
    zodProblems(parsed.error, resource, value).map((problem) =>
      problem.code === 'unknown_field'
        ? { ...problem, code: 'unknown_parameter', message: `${problem.field} is not a parameter of this operation` }
        : problem,
    ),
  );
}
