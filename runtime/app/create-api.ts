import Koa from 'koa';
import { assertIfMatch, etagOf } from '../caching/index.ts';
import { conventionalResponse, presentationHeaders, presentationOf, serializeJson } from '../presentation/index.ts';
import type { PreconditionCheck } from '../resources/index.ts';
import { authenticate, rejectTokenInUrl, requireAuth, requireUserAgent } from '../auth/index.ts';
import { rateLimit } from '../limits/index.ts';
import { JobQueue } from '../jobs/index.ts';
import type { PathFamily } from '../routing/index.ts';
import { jsonBody, negotiateJson } from '../http/index.ts';
import { checks, familyRouters, sequence } from '../routing/index.ts';
import { RequestDrain } from '../server/drain.ts';
import { serviceTools } from '../services/index.ts';
import { andThen } from '../storage/index.ts';
import type { ApiContext, ApiDefinition, ServiceTools } from './api-definition.ts';
import type { ServerConfig } from './config.ts';
import { openBackend, type Backend } from './open-backend.ts';
import { openCounters, type OpenedCounters } from './open-counters.ts';

export interface CreateApiOptions {
  readonly config: ServerConfig;
  /** An already opened backend (its tables migrated); default: the database config.databaseUrl names. */
  readonly backend?: Backend;
}

/** If-Match on PUT, PATCH and DELETE: the tag of the current representation as this request would GET it. */
const ifMatchPrecondition: PreconditionCheck = (ctx, renderCurrent) => {
  const header = ctx.get('If-Match');
  if (header === '') return;
  return andThen(renderCurrent(), (current) => assertIfMatch(header, etagOf(serializeJson(current, presentationOf(ctx)))));
};

/** A created API: the Koa app, its context, and what shutting it down needs. */
export interface CreatedApi {
  readonly app: Koa;
  readonly context: ApiContext;
  readonly drain: RequestDrain;
  /** Stops background work and closes the store. */
  close(): Promise<void>;
}

/** Every table an API's collections and aggregates are stored in. */
export function tablesOf(api: ApiDefinition) {
  return [...Object.values(api.catalog.collections).map((model) => model.table), ...api.catalog.aggregates.map((model) => model.table)];
}

/**
 * Builds the Koa app for a generated API: opens and migrates the database, starts the job queues, and
 * mounts the conventions middleware in front of one router per path family.
 */
export async function createApi(api: ApiDefinition, { config, backend }: CreateApiOptions): Promise<CreatedApi> {
  const opened = backend ?? (await openBackend(config.databaseUrl, { tables: tablesOf(api), poolSize: config.databasePoolSize }));
  let counters: OpenedCounters;
  try {
    counters = await openCounters(config.redisUrl, opened);
  } catch (error) {
    await opened.close();
    throw error;
  }
  const { store, tokens } = opened;
  const resourceContext = { store, baseUrl: config.baseUrl, catalog: api.catalog };
  const tools = serviceTools(resourceContext);
  const queues = api.jobQueues.map(
    (spec) => new JobQueue<ServiceTools>({ table: opened.jobs, name: spec.name, types: spec.jobs, tools, concurrency: config.jobWorkers ?? spec.concurrency ?? 2, leaseMs: config.jobLeaseMs }),
  );
  const context: ApiContext = {
    ...resourceContext,
    handlerOptions: { preconditions: ifMatchPrecondition },
    versions: api.versions,
    tools,
    services: {
      jobQueues: new Map(queues.map((queue, index) => [api.jobQueues[index]!.name, queue])),
      settings: opened.settings,
      openApi: (version) => api.openApi?.[version],
    },
  };
  for (const queue of queues) queue.start();
  const drain = new RequestDrain();
  const app = new Koa();
  app.proxy = false;
  // Each family counts its own calls (per client, or per address before authentication is refused).
  const guard = (family: PathFamily) => [
    checks([
      rateLimit({ family, ...config.limits[family], trustedProxies: config.trustedProxies, counter: counters.counter(family, config.limits[family]) }),
      requireAuth(),
      jsonBody({ limitBytes: config.bodyLimitBytes }),
    ]),
  ];
  // One Koa layer: a GET whose handler reads synchronously (node:sqlite) passes every layer
  // without a promise of its own. Outermost first: the response conventions (headers every response
  // carries, cache headers, compression, the one serialiser, and the one error renderer inside it so
  // errors are serialised alike), the drain, the request checks (each passes synchronously on the
  // common path), then the family's router.
  app.use(
    sequence([
      conventionalResponse({ server: config.serverHeader, ...(config.poweredBy === undefined ? {} : { poweredBy: config.poweredBy }) }),
      drain.middleware(),
      checks([
        requireUserAgent(),
        rejectTokenInUrl(),
        negotiateJson(),
        presentationHeaders(),
        authenticate({ store: tokens, ...(config.jwt === undefined ? {} : { jwt: config.jwt }) }),
      ]),
      familyRouters({ routes: api.routes(context), before: { resource: guard('resource'), service: guard('service'), setting: guard('setting') } }),
    ]),
  );
  return {
    app,
    context,
    drain,
    close: async () => {
      await Promise.all(queues.map((queue) => queue.stop()));
      await counters.close();
      await opened.close();
    },
  };
}
