import type { Context } from 'koa';
import type { ZodObject, ZodType } from 'zod';
import { PROCESSING_AFTER_STATE, requestBody, setResponseHeader } from '../http/index.ts';
import { invalidInput, zodProblems } from '../resources/index.ts';
import type { PathParams, RouteHandler } from '../routing/index.ts';
import type { ServiceTools } from './api-definition.ts';
import { callerOf, type Caller } from '../auth/index.ts';

/** A custom service operation as a definition declares it. */
export interface CustomOperationSpec {
  readonly method: string;
  /** After how many ms of work the first 102 Processing is sent (default: the server's PROCESSING_AFTER_MS). */
  readonly processingAfterMs?: number;
  readonly query?: ZodObject;
  readonly body?: ZodType;
  readonly handle: (request: {
    version: string;
    query: any;
    body: any;
    params: PathParams;
    caller: Caller | undefined;
    tools: ServiceTools;
  }) =>
    | { status?: number; body?: unknown; headers?: Readonly<Record<string, string>> }
    | Promise<{ status?: number; body?: unknown; headers?: Readonly<Record<string, string>> }>;
}

/**
 * Serves one operation a definition wrote itself: validates the query string and the body with the
 * declared schemas (400 naming the field), calls the handler, and sends what it answers.
 */
export function customOperationHandler(
  operation: CustomOperationSpec,
  version: string,
  tools: ServiceTools,
  resource: string,
): RouteHandler {
  return async (ctx: Context, params: PathParams) => {
    if (operation.processingAfterMs !== undefined)
      (ctx.state as Record<symbol, unknown>)[PROCESSING_AFTER_STATE] = operation.processingAfterMs;
    const query = validate(operation.query, Object.fromEntries(new URLSearchParams(ctx.querystring)), resource);
    const body = validate(operation.body, requestBody(ctx), resource);
    const answer = await operation.handle({ version, query, body, params, caller: callerOf(ctx), tools });
    for (const [name, value] of Object.entries(answer.headers ?? {})) setResponseHeader(ctx, name, value);
    ctx.status = answer.status ?? (answer.body === undefined ? 204 : 200);
    if (answer.body !== undefined) ctx.body = answer.body;
  };
}

function validate(schema: ZodType | undefined, value: unknown, resource: string): unknown {
  if (schema === undefined) return value;
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  throw invalidInput(zodProblems(parsed.error, resource, value ?? {}));
}
