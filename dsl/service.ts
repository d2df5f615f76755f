import type { z } from 'zod';
import type { DataAccess, DeclaredCollection, Flow } from './rules.ts';
import type { Caller, ServiceTools } from './service-tools.ts';
import type { ScopesByMethod } from './scopes.ts';
import type { VersionDeclarations } from './versions.ts';

export type ServiceMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a custom service handler receives: validated query and body, path parameters, the caller. */
export interface ServiceRequest<Query = Record<string, string>, Body = unknown> {
  readonly version: string;
  readonly query: Query;
  readonly body: Body;
  readonly params: Readonly<Record<string, string>>;
  readonly caller: Caller | undefined;
  readonly tools: ServiceTools;
  /**
   * The collections, read and written as the caller inside one transaction: each write validated
   * and checked by its collection's rules (their effects included), each row seen as the caller's
   * own requests see it. Used from a handler written as a generator function, which `yield*`s each
   * access (`const room = yield* data.of(rooms).get(id)`); the whole handler is then one
   * transaction, kept when it returns and dropped when it throws.
   */
  readonly data: DataAccess;
}

/** What a custom service handler answers. The body is rendered like every other JSON body. */
export interface ServiceResponse {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A row of the collection the operation `answers` (as the data access reads it), sent as that
   * collection's resource in the request's version: X-Result-Fields and X-Expansion-Fields honoured,
   * with its ETag. In place of `body`.
   */
  readonly resource?: Readonly<Record<string, unknown>>;
}

export interface ServiceOperation {
  readonly method: ServiceMethod;
  /** Below the service path: '' (default) for the service itself, or `:name` for one item. */
  readonly path?: string;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly description?: string;
  /** The scopes a caller's token must all hold for this operation (added to the service's own for its method). */
  readonly scopes?: readonly string[];
  /**
   * A slow operation: after this many ms of work the server sends `102 Processing`, and again at
   * the server's interval, until the answer (default: PROCESSING_AFTER_MS, 1000).
   */
  readonly processingAfterMs?: number;
  /**
   * The success statuses the handler answers, for the OpenAPI documents (default: 200 with a body
   * and 204 without one, since a handler may answer either).
   */
  readonly successes?: readonly (200 | 201 | 202 | 204)[];
  /** The OpenAPI operationId, what generated clients name the call. Default: method, service and path (`getTime`, `getTimeByZone`). */
  readonly operationId?: string;
  /**
   * The collection whose resource the handler answers (its `resource`): the OpenAPI documents give
   * that collection's representation as the 200 body.
   */
  readonly answers?: DeclaredCollection<any> | string;
  /**
   * The work: a plain or async function, or a generator function that works on `data` inside one
   * transaction (see ServiceRequest.data).
   */
  readonly handle: (
    request: ServiceRequest<any, any>,
  ) => ServiceResponse | Promise<ServiceResponse> | Flow<ServiceResponse>;
}

/** A job type of a job queue: the payload it takes and the work it does. */
export interface JobType<Payload extends z.ZodObject = z.ZodObject> {
  readonly payload: Payload;
  readonly description?: string;
  /**
   * The collection this job type creates a resource of. Its run() returns `{ identity }` (what
   * tools.createResource answers), and GET of the finished job answers 303 See Other to that resource.
   */
  readonly produces?: string;
  readonly run: (payload: z.output<Payload>, tools: ServiceTools) => unknown;
}

interface ServiceBase<Name extends string> {
  readonly kind: 'service';
  /** The path below /services/{version}/: `search`, `queued/jobs`. */
  readonly name: Name;
  readonly versions: VersionDeclarations;
  /** The scopes a caller needs, per method, for every operation of the service: see ScopesByMethod. */
  readonly scopes?: ScopesByMethod;
  readonly description?: string;
}

/** A service whose operations the definition writes itself. */
export interface CustomServiceDeclaration<Name extends string = string> extends ServiceBase<Name> {
  readonly handler: 'custom';
  readonly operations: readonly ServiceOperation[];
}

/** The full-text search service over every collection's searchable fields: GET ?q=&category=. */
export interface SearchServiceDeclaration<Name extends string = string> extends ServiceBase<Name> {
  readonly handler: 'search';
}

/** A persisted job queue: PUT adds a job, GET /{id} reads it, DELETE /{id} removes it. */
export interface JobQueueDeclaration<Name extends string = string> extends ServiceBase<Name> {
  readonly handler: 'job-queue';
  readonly jobs: Readonly<Record<string, JobType<any>>>;
  /** How many jobs run at once in one server process. Default 2. */
  readonly concurrency?: number;
}

/** What the OpenAPI documents say about the API as a whole (their `info`). */
export interface OpenApiInfo {
  /** Default `API`; the version is appended (`Orders API v1`). */
  readonly title?: string;
  /** Default: the declaration's doc comment. */
  readonly description?: string;
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
  /** An SPDX `identifier` (`MIT`) or a `url` to the licence text. */
  readonly license?: { readonly name: string; readonly identifier?: string; readonly url?: string };
}

/** The OpenAPI document of each version, served as a service. */
export interface OpenApiServiceDeclaration<Name extends string = string> extends ServiceBase<Name> {
  readonly handler: 'openapi';
  readonly info?: OpenApiInfo;
}

/**
 * Liveness and readiness for load balancers and orchestrators: GET /services/{version}/{name} answers
 * 200 while the process serves, GET /services/{version}/{name}/ready answers 200 when the store (and
 * every other dependency the server checks) answers, else 503 with the error body. Both need no token
 * and are not counted against any call limit.
 */
export interface HealthServiceDeclaration<Name extends string = string> extends ServiceBase<Name> {
  readonly handler: 'health';
}

export type ServiceDeclaration =
  | CustomServiceDeclaration
  | SearchServiceDeclaration
  | JobQueueDeclaration
  | OpenApiServiceDeclaration
  | HealthServiceDeclaration;

type Declare<T> = Omit<T, 'kind' | 'handler'>;

/**
 * Declares a service at /services/{version}/{name} with operations written in the definition.
 *
 * @example
 * export default service({ name: 'time', versions: { v1: {} }, operations: [{ method: 'GET', handle: () => ({ body: { now: new Date().toISOString() } }) }] });
 */
export function service<const Name extends string>(
  declaration: Declare<CustomServiceDeclaration<Name>>,
): CustomServiceDeclaration<Name> {
  return { kind: 'service', handler: 'custom', ...declaration };
}

/** Declares the search service: GET /services/{version}/{name}?q=TEXT&category=COLLECTION. */
export function searchService<const Name extends string>(
  declaration: Declare<SearchServiceDeclaration<Name>>,
): SearchServiceDeclaration<Name> {
  return { kind: 'service', handler: 'search', ...declaration };
}

/** Declares a job queue service with its job types. */
export function jobQueue<const Name extends string>(
  declaration: Declare<JobQueueDeclaration<Name>>,
): JobQueueDeclaration<Name> {
  return { kind: 'service', handler: 'job-queue', ...declaration };
}

/** Declares a job type; an identity helper that types `run` from the payload schema. */
export function job<Payload extends z.ZodObject>(declaration: JobType<Payload>): JobType<Payload> {
  return declaration;
}

/** Declares the health service: GET /services/{version}/{name} (liveness) and .../{name}/ready (readiness), no token. */
export function healthService<const Name extends string>(
  declaration: Declare<HealthServiceDeclaration<Name>>,
): HealthServiceDeclaration<Name> {
  return { kind: 'service', handler: 'health', ...declaration };
}

/** Declares the OpenAPI service: GET /services/{version}/{name} answers that version's document. */
export function openApiService<const Name extends string>(
  declaration: Declare<OpenApiServiceDeclaration<Name>>,
): OpenApiServiceDeclaration<Name> {
  return { kind: 'service', handler: 'openapi', ...declaration };
}
