import type { ZodObject } from 'zod';
import type { Catalog, CollectionHandlerOptions, ResourceContext, SettingModel } from '../resources/index.ts';
import type { Route } from '../routing/index.ts';
import type { Maybe, MigrationSource } from '../storage/index.ts';
import type { Caller } from '../auth/index.ts';
import type { SettingsStore } from '../settings/index.ts';

/** A job type as a job-queue declaration states it: the payload schema and the work. */
export interface JobTypeSpec {
  readonly payload: ZodObject;
  readonly description?: string;
  /** The collection whose resource a finished job of this type produced: its result is `{ identity }`. */
  readonly produces?: string;
  readonly run: (payload: any, tools: ServiceTools) => unknown;
}

/** A job-queue service declaration, as the runtime needs it. */
export interface JobQueueSpec {
  readonly name: string;
  readonly jobs: Readonly<Record<string, JobTypeSpec>>;
  readonly concurrency?: number;
}

/** What services and jobs may ask of the server (the DSL's ServiceTools, supplied here). */
export interface ServiceTools {
  /** At once on SQLite, a promise on PostgreSQL. */
  reindex(collections?: readonly string[]): Maybe<{ readonly indexed: Readonly<Record<string, number>> }>;
  searchableCollections(): readonly string[];
  createResource(
    collection: string,
    representation: Record<string, unknown>,
    version?: string,
  ): { readonly identity: string | number } | Promise<{ readonly identity: string | number }>;
}

/** Everything the generated route modules need, resolved once when the app is created. */
export interface ApiContext extends ResourceContext {
  /** Options every resource handler shares (preconditions, Last-Modified key). */
  readonly handlerOptions: CollectionHandlerOptions;
  readonly versions: readonly string[];
  readonly tools: ServiceTools;
  readonly services: ServiceRuntime;
}

/**
 * The service-family runtime: job queues by service name, the settings store, and the OpenAPI
 * documents by version. Filled in by createApp.
 */
export interface ServiceRuntime {
  readonly jobQueues: ReadonlyMap<string, JobQueuePort>;
  readonly settings: SettingsPort;
  /** The document of a version as this server serves it, loaded with the first request for it; undefined for an unknown version. */
  readonly openApi: (version: string) => Promise<unknown> | undefined;
  /** What readiness checks: the store (SQLite's file, or PostgreSQL). Not Redis: an outage of it is ridden out (docs/operating.md). */
  readonly readiness: readonly ReadinessCheck[];
}

/** The generated API: what generated/api.ts exports and createApp serves. */
export interface ApiDefinition {
  readonly versions: readonly string[];
  readonly catalog: Catalog;
  readonly settings: readonly SettingModel[];
  readonly jobQueues: readonly JobQueueSpec[];
  /**
   * The OpenAPI document of each version, served by the openapi service: how to load it (generated
   * code imports generated/openapi/{version}.json), called with the first request for it, so a server
   * whose documents nobody reads never holds them (about 1 MB of JSON each).
   */
  readonly openApi?: Readonly<Record<string, () => Promise<{ readonly default: unknown }>>>;
  /** The openapi service's name: each version's document is at /services/{v}/{name}, its docs page at /services/{v}/docs. */
  readonly openApiService?: string;
  readonly routes: (context: ApiContext) => Route[];
  /**
   * The project's migrations (migrations/*.json), in order: applied at start where the database has
   * not recorded them. Absent for a project that keeps none (its tables are only ever added to).
   */
  readonly migrations?: readonly MigrationSource[];
}

/** A job queue as the service routes use it; runtime/jobs provides it. */
export interface JobQueuePort {
  /** Queues a job for `caller`, who sent it: it runs as them, and only they know of it. */
  enqueue(body: unknown, caller?: Caller): Maybe<{ job_id: string | number }>;
  get(id: string): Maybe<object | undefined>;
  /** A page of the jobs `caller` queued, read from a list request's query string, and how many match. */
  list(caller: Caller, query: string): Maybe<{ jobs: object[]; total: number; limit: number; offset: number }>;
  remove(id: string): Maybe<void>;
  representation(job: never, uri: string): Record<string, unknown>;
  producedResource(job: never): { readonly collection: string; readonly identity: string | number } | undefined;
  /** Who queued a job (the same client and user may know of it); undefined for the server's own jobs. */
  ownerOf(job: never): { readonly client: string; readonly user?: string } | undefined;
}

/** Where setting values live, per principal: runtime/settings' store, which says what each member does. */
export type SettingsPort = SettingsStore;

/**
 * One dependency readiness depends on: `check()` returns (or resolves) when it answers and throws
 * (or rejects) when it does not. The store's is built in; a server with Redis adds Redis's.
 */
export interface ReadinessCheck {
  /** Named in the readiness body and in the 503's error entry (`resource`). */
  readonly name: string;
  readonly check: () => unknown;
  /**
   * A dependency the server serves without (Redis: its instances count calls in their own memory
   * meanwhile): reported in the body, `degraded: <fault>` when it fails, but never a 503, or a load
   * balancer would drop every instance at once for an outage they all ride out.
   */
  readonly optional?: boolean;
}
