import { JSON_MEDIA_TYPE } from '../../../codegen/openapi/media-type.ts';

type Json = Record<string, any>;

/**
 * What a client sets once for every call, never per call: a document that asked for them as
 * parameters of an operation would make each call fail to type-check, as it should.
 */
const SET_ONCE = new Set(['user-agent', 'authorization']);

/** The methods an OpenAPI path item can hold, in the order the document writes them. */
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'] as const;
export type Method = (typeof METHODS)[number];

/** One operation of a document, with what a client must send to call it, taken from the document alone. */
export interface PlannedCall {
  readonly method: Method;
  /** The path as the document writes it: /v1/orders/{order_id}. */
  readonly template: string;
  readonly operationId: string;
  /** `METHOD template`: how a call is named in the test's report. */
  readonly name: string;
  /**
   * Every path parameter, and the required query and header parameters (but User-Agent and
   * Authorization, which the client sets once), each with the document's example.
   */
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly header: Readonly<Record<string, unknown>>;
  /** The request body's example, when the operation takes a body. */
  readonly body?: unknown;
  /** The statuses the document lists for the operation (`default` among them when it has one). */
  readonly statuses: readonly string[];
}

/** Every operation of a document, by name (`METHOD template`). */
export function operationsOf(document: Json): string[] {
  return Object.entries(document.paths as Json).flatMap(([template, item]) =>
    METHODS.filter((method) => (item as Json)[method] !== undefined).map((method) => callName(method, template)),
  );
}

export const callName = (method: string, template: string) => `${method.toUpperCase()} ${template}`;

/**
 * A call of every operation of a document, in an order that makes sense on an empty database:
 * first what creates or replaces (POST, PUT), so that the identifiers the examples name exist; then
 * what reads or changes them (GET, HEAD, OPTIONS, PATCH); last what deletes, in reverse order, a
 * resource after what hangs from it. Values are the document's examples: a parameter or body
 * without one is a document a generic caller cannot use, and fails here.
 */
export function callPlan(document: Json): PlannedCall[] {
  const calls = Object.entries(document.paths as Json).flatMap(([template, item]) =>
    METHODS.filter((method) => (item as Json)[method] !== undefined).map((method) =>
      plannedCall(document, template, item as Json, method),
    ),
  );
  const phase = (call: PlannedCall) =>
    call.method === 'post' || call.method === 'put' ? 0 : call.method === 'delete' ? 2 : 1;
  const byPhase = [0, 1, 2].map((which) => calls.filter((call) => phase(call) === which));
  return [...byPhase[0]!, ...byPhase[1]!, ...byPhase[2]!.reverse()];
}

function plannedCall(document: Json, template: string, item: Json, method: Method): PlannedCall {
  const operation = item[method] as Json;
  const name = callName(method, template);
  const values = {
    path: {} as Record<string, unknown>,
    query: {} as Record<string, unknown>,
    header: {} as Record<string, unknown>,
  };
  for (const parameter of [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((entry: Json) =>
    resolve(document, entry),
  )) {
    const where = parameter.in as string;
    if (where === 'cookie' || (where !== 'path' && parameter.required !== true)) continue;
    if (where === 'header' && SET_ONCE.has(String(parameter.name).toLowerCase())) continue;
    const example = parameter.example ?? Object.values((parameter.examples ?? {}) as Json)[0]?.value;
    if (example === undefined) throw new Error(`${name}: parameter ${parameter.name} has no example`);
    values[where as 'path' | 'query' | 'header'][parameter.name as string] = example;
  }
  const media = (resolve(document, operation.requestBody ?? {}).content as Json | undefined)?.[JSON_MEDIA_TYPE];
  if (media !== undefined && media.example === undefined) throw new Error(`${name}: the request body has no example`);
  return {
    method,
    template,
    operationId: operation.operationId as string,
    name,
    ...values,
    ...(media === undefined ? {} : { body: media.example }),
    statuses: Object.keys(operation.responses as Json),
  };
}

/** A node of the document, through its `$ref` when it is one. */
export function resolve(document: Json, node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  return (node.$ref as string)
    .slice(2)
    .split('/')
    .reduce((value: Json, key) => value[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
}

/**
 * Every scope some operation of the document needs, whether said as the operation's `x-scopes` or
 * in its security requirements: a caller that means to call everything asks its token for them all.
 */
export function scopesOf(document: Json): string[] {
  const scopes = new Set<string>();
  for (const item of Object.values(document.paths as Json))
    for (const method of METHODS) {
      const operation = (item as Json)[method] as Json | undefined;
      for (const scope of (operation?.['x-scopes'] ?? []) as string[]) scopes.add(scope);
      for (const requirement of (operation?.security ?? []) as Json[])
        for (const needed of Object.values(requirement) as string[][]) for (const scope of needed) scopes.add(scope);
    }
  return [...scopes].sort();
}

/** Whether a status is one the document lists for the operation (any status, where it has `default`). */
export const isDocumented = (call: PlannedCall, status: number) =>
  call.statuses.includes(String(status)) || call.statuses.includes('default');
