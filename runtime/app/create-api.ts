import Koa, { type Context } from 'koa';
import { docsPathOf, docsRoutes, servedDocument } from '../docs/index.ts';
import { conventionalResponse, presentationHeaders } from '../responses/index.ts';
import { checkIfMatch, type JobsPort, type PreconditionCheck } from '../resources/index.ts';
import {
  authenticate,
  rejectTokenInUrl,
  requireAuth,
  requireUserAgent,
  scopeChecked,
  type TokenStore,
} from '../auth/index.ts';
import { rateLimit } from '../limits/index.ts';
import { JobQueue, operationJobTypes } from '../jobs/index.ts';
import type { PathFamily } from '../routing/index.ts';
import {
  cors,
  jsonBody,
  negotiateJson,
  processingUpdates,
  requestBounds,
  requireHost,
  supportedHttpVersion,
} from '../http/index.ts';
import { checks, familyRouters } from '../routing/index.ts';
import { sequence } from '../fast-path/sequence.ts';
import { RequestDrain } from '../http/drain.ts';
import { andThen } from '../storage/index.ts';
import { serviceTools } from '../services/index.ts';
import type { ApiContext, ApiDefinition, ServiceTools } from '../services/api-definition.ts';
import type { ServerConfig } from './config.ts';
import { openBackend, type Backend } from './open-backend.ts';
import { openCounters, type OpenedCounters } from './open-counters.ts';
import { requestLog, silentLogger, type Logger } from '../logging/index.ts';
import { createApiMetrics, requestMetrics, type ApiMetrics } from '../metrics/index.ts';

export interface CreateApiOptions {
  readonly config: ServerConfig;
  /** An already opened backend (its tables migrated); default: the database config.databaseUrl names. */
  readonly backend?: Backend;
  /** Where request lines and server errors go. Default: a logger that writes nothing. */
  readonly logger?: Logger;
}

/** If-Match on PUT, PATCH and DELETE: the tag of the current version, as any GET of it carries (responses/version-tag.ts). */
const ifMatchPrecondition: PreconditionCheck = (ctx, renderCanonical) => {
  if (ctx.get('If-Match') === '') return;
  return andThen(renderCanonical(), (current) => checkIfMatch(ctx, current));
};

/** A created API: the Koa app, its context, and what shutting it down needs. */
export interface CreatedApi {
  readonly app: Koa;
  readonly context: ApiContext;
  readonly drain: RequestDrain;
  /** The token store in the API's own database (what `--issue-token` issues from). */
  readonly tokens: TokenStore;
  /** The Prometheus metrics, when config.metrics asks for them. */
  readonly metrics: ApiMetrics | undefined;
  /**
   * Stops background work and closes the store. Running jobs get at most `jobsTimeoutMs` (default
   * 10 s) to finish; one still running after that is left to its lease, which queues it again.
   */
  close(options?: { readonly jobsTimeoutMs?: number }): Promise<void>;
}

/** Every table an API's collections and aggregates are stored in. */
export function tablesOf(api: ApiDefinition) {
  return [
    ...Object.values(api.catalog.collections).map((model) => model.table),
    ...api.catalog.aggregates.map((model) => model.table),
  ];
}

/**
 * Builds the Koa app for a generated API: opens and migrates the database, starts the job queues, and
 * mounts the conventions middleware in front of one router per path family.
 */
export async function createApi(
  api: ApiDefinition,
  { config, backend, logger = silentLogger() }: CreateApiOptions,
): Promise<CreatedApi> {
  const opened =
    backend ??
    (await openBackend(config.databaseUrl, {
      tables: tablesOf(api),
      ...(api.migrations === undefined ? {} : { migrations: api.migrations }),
      poolSize: config.databasePoolSize,
      search: config.search,
    }));
  let counters: OpenedCounters;
  try {
    counters = await openCounters(config.redisUrl, opened, logger);
  } catch (error) {
    await opened.close();
    throw error;
  }
  if (opened.warning !== undefined) logger.warn(opened.warning);
  const { store, tokens } = opened;
  // Jobs a rule queues go into the write's own transaction, through the queue that declares their type.
  const queuesByName = new Map<string, JobQueue<ServiceTools>>();
  const jobs: JobsPort = {
    enqueueWithin: (tx, queueName, type, payload, caller) => {
      const queue = queuesByName.get(queueName);
      if (queue === undefined) throw new Error(`there is no job queue ${queueName}`);
      return queue.enqueueWithin(tx, type, payload, caller);
    },
  };
  const resourceContext = { store, baseUrl: config.baseUrl, catalog: api.catalog, jobs };
  const tools = serviceTools(resourceContext);
  const metrics = config.metrics === undefined ? undefined : createApiMetrics();
  const queues = api.jobQueues.map(
    (spec) =>
      new JobQueue<ServiceTools>({
        table: opened.jobs,
        name: spec.name,
        // The queue's declared job types, and those of the asynchronous operations queued on it.
        types: {
          ...spec.jobs,
          ...Object.assign(
            {},
            ...Object.values(api.catalog.collections)
              .filter((model) => model.asynchronous?.queue === spec.name)
              .map((model) => operationJobTypes<ServiceTools>(resourceContext, model)),
          ),
        },
        tools,
        // A job a caller queued runs as that caller: rules and row access judge its writes as theirs.
        toolsFor: (caller) => serviceTools(resourceContext, caller),
        concurrency: config.jobWorkers ?? spec.concurrency ?? 2,
        leaseMs: config.jobLeaseMs,
        warn: (message) => logger.warn(message),
        ...(metrics === undefined
          ? {}
          : { onFinished: ({ type, outcome }) => metrics.jobsFinished.inc({ queue: spec.name, type, outcome }) }),
      }),
  );
  for (const queue of queues) queuesByName.set(queue.name, queue);
  metrics?.watchQueues(queues);
  const documentPath = (version: string) => `/services/${version}/${api.openApiService ?? 'openapi'}`;
  const documentVersions = Object.keys(api.openApi ?? {});
  // Each version's document as this server serves it, loaded and made with the first request for it.
  // A load that fails (a file unreadable for a moment) is forgotten, so the next request tries again.
  const servedDocuments = new Map<string, Promise<unknown>>();
  const openApi = (version: string): Promise<unknown> | undefined => {
    const load = api.openApi !== undefined && Object.hasOwn(api.openApi, version) ? api.openApi[version] : undefined;
    if (load === undefined) return undefined;
    let served = servedDocuments.get(version);
    if (served === undefined) {
      served = load().then((loaded) => servedDocument(loaded.default, config.baseUrl, config.docsAccess, documentPath));
      servedDocuments.set(version, served);
      served.catch(() => {
        if (servedDocuments.get(version) === served) servedDocuments.delete(version);
      });
    }
    return served;
  };
  const docs =
    api.openApiService === undefined
      ? []
      : docsRoutes({ versions: documentVersions, documentName: api.openApiService });
  const publicPaths = new Set(
    config.docsAccess === 'public'
      ? documentVersions.flatMap((version) => [documentPath(version), docsPathOf(version)])
      : [],
  );
  // With DOCS_ACCESS=public, the documents, the docs pages and their files need no token.
  const isPublic = (ctx: Context) =>
    publicPaths.has(ctx.path) || publicPaths.has(ctx.path.slice(0, ctx.path.lastIndexOf('/')));
  const context: ApiContext = {
    ...resourceContext,
    handlerOptions: { preconditions: ifMatchPrecondition, queues: new Map(queues.map((queue) => [queue.name, queue])) },
    versions: api.versions,
    tools,
    services: {
      jobQueues: new Map(queues.map((queue, index) => [api.jobQueues[index]!.name, queue])),
      settings: opened.settings,
      openApi,
      readiness: [{ name: 'store', check: () => opened.ping() }, ...counters.readiness],
    },
  };
  for (const queue of queues) queue.start();
  // A route that names scopes checks them before its handler; the others are served as they are.
  const routes = [...api.routes(context), ...docs].map(scopeChecked);
  const drain = new RequestDrain();
  const app = new Koa();
  app.proxy = false;
  // What Koa itself reports (a failure while writing a response, after every middleware has run).
  // A client's error (4xx, an aborted upload) is no fault of the server and not logged as one.
  app.on('error', (error: { status?: number; expose?: boolean }) => {
    if (error.expose === true || (typeof error.status === 'number' && error.status < 500))
      logger.debug({ err: error }, 'response not completed');
    else logger.error({ err: error }, 'response failed');
  });
  // Each family counts its own calls (per client, or per address before authentication is refused).
  const guard = (family: PathFamily) => [
    checks([
      rateLimit({
        family,
        ...config.limits[family],
        trustedProxies: config.trustedProxies,
        counter: counters.counter(family, config.limits[family]),
      }),
      requireAuth(family === 'service' && publicPaths.size > 0 ? { isPublic } : {}),
      jsonBody({ limitBytes: config.bodyLimitBytes }),
    ]),
  ];
  // One Koa layer: a GET whose handler reads synchronously (node:sqlite) then passes every layer
  // without a promise of its own. Outermost first: the request log (it writes when the response has
  // been sent, whatever answered it), the response conventions (headers every response
  // carries, cache headers, compression, the one serialiser, and the one error renderer inside it so
  // errors are serialised alike), the drain, the request checks (each passes synchronously on the
  // common path), then the family's router.
  app.use(
    sequence([
      requestLog({ logger, trustedProxies: config.trustedProxies }),
      // Only when metrics are on: otherwise no request pays for them.
      ...(metrics === undefined ? [] : [requestMetrics({ metrics, routes })]),
      conventionalResponse({
        server: config.serverHeader,
        ...(config.poweredBy === undefined ? {} : { poweredBy: config.poweredBy }),
        // The request log writes a 500 with its cause's stack, on the request's own line.
        report: () => {},
        ...(config.documentFor === undefined ? {} : { documentFor: config.documentFor }),
      }),
      // Before every check: a preflight carries no token and is no call (CORS_ORIGINS unset: not mounted).
      ...(config.corsOrigins === undefined ? [] : [cors({ origins: config.corsOrigins })]),
      drain.middleware(),
      checks([
        supportedHttpVersion(),
        requireHost(),
        requestBounds(config.requestBounds),
        requireUserAgent(),
        rejectTokenInUrl(),
        negotiateJson(),
        presentationHeaders(),
        authenticate({ store: tokens, ...(config.jwt === undefined ? {} : { jwt: config.jwt }) }),
      ]),
      processingUpdates(config.processing),
      familyRouters({
        routes,
        before: { resource: guard('resource'), service: guard('service'), setting: guard('setting') },
      }),
    ]),
  );
  return {
    app,
    context,
    drain,
    tokens,
    metrics,
    close: async ({ jobsTimeoutMs } = {}) => {
      await Promise.all(queues.map((queue) => queue.stop(jobsTimeoutMs)));
      await counters.close();
      await opened.close();
    },
  };
}
