import type { RouteHandler } from '../routing/index.ts';
import type { ApiContext } from './api-definition.ts';
import { customOperationHandler, type CustomOperationSpec } from './custom-service.ts';
import { searchHandler } from './search-handler.ts';
import { jobQueueHandlers } from './job-queue-handlers.ts';
import { openApiHandler } from './openapi-handler.ts';
import { healthHandlers } from './health-handlers.ts';
import { withDeprecation, type Deprecation } from '../versions/index.ts';

/** A service declaration as the runtime serves it (the DSL's declarations have this shape). */
export type ServiceSpec = {
  readonly name: string;
  readonly versions: Readonly<Record<string, { readonly deprecated?: Deprecation }>>;
} & (
  | { readonly handler: 'search' }
  | { readonly handler: 'openapi' }
  | { readonly handler: 'health' }
  | { readonly handler: 'job-queue' }
  | { readonly handler: 'custom'; readonly operations: readonly CustomOperationSpec[] }
);

/**
 * The handlers of one service in one version, indexed like the operations the generator flattened:
 * search and openapi have one (GET); health has two (GET, GET /ready); a job queue has four (PUT, GET /:job_id, DELETE /:job_id, GET: the caller's jobs);
 * a custom service has one per declared operation.
 */
export function serviceHandlers(context: ApiContext, service: ServiceSpec, version: string): RouteHandler[] {
  const deprecation = service.versions[version]?.deprecated;
  return handlersOf(context, service, version).map((handler) =>
    withDeprecation(handler, deprecation, version, context.baseUrl),
  );
}

function handlersOf(context: ApiContext, service: ServiceSpec, version: string): RouteHandler[] {
  switch (service.handler) {
    case 'search':
      return [searchHandler(context, version)];
    case 'openapi':
      return [openApiHandler(context, version)];
    case 'health': {
      const handlers = healthHandlers(context);
      return [handlers.live, handlers.ready];
    }
    case 'job-queue': {
      const handlers = jobQueueHandlers(context, service.name, version);
      return [handlers.enqueue, handlers.read, handlers.remove, handlers.list];
    }
    case 'custom':
      return service.operations.map((operation) => customOperationHandler(operation, version, context, service.name));
  }
}
