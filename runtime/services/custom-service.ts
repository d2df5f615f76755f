import type { Context } from 'koa';
import { ZodObject, type ZodType } from 'zod';
import { PROCESSING_AFTER_STATE, requestBody, setResponseHeader } from '../http/index.ts';
import {
  answerResource,
  invalidInput,
  runOwnOperation,
  zodProblems,
  type CollectionModel,
  type OperationData,
} from '../resources/index.ts';
import type { PathParams, RouteHandler } from '../routing/index.ts';
import type { ApiContext, ServiceTools } from './api-definition.ts';
import { callerOf, type Caller } from '../auth/index.ts';

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
  const answers = answeredCollection(operation, context, resource);
  // A member the body's object schema does not declare is refused (unknown_field), not silently dropped.
  const bodySchema = operation.body instanceof ZodObject ? operation.body.strict() : operation.body;
  return async (ctx: Context, params: PathParams) => {
    if (operation.processingAfterMs !== undefined)
      (ctx.state as Record<symbol, unknown>)[PROCESSING_AFTER_STATE] = operation.processingAfterMs;
    const query = validate(operation.query, Object.fromEntries(new URLSearchParams(ctx.querystring)), resource);
    const body = validate(bodySchema, requestBody(ctx), resource);
    const caller = callerOf(ctx);
    const answer = (await runOwnOperation(context, caller, (data) =>
      operation.handle({ version, query, body, params, caller, tools: context.tools, data }),
    )) as OperationAnswer;
    for (const [name, value] of Object.entries(answer.headers ?? {})) setResponseHeader(ctx, name, value);
    if (answer.resource !== undefined) {
      if (answers === undefined)
        throw new TypeError(`an operation of ${resource} answered a resource but declares no collection it answers`);
      return answerResource(ctx, context, answers, version, answer.resource, answer.status ?? 200);
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
