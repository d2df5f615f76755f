export { serviceHandlers, type ServiceSpec } from './service-handlers.ts';
export { searchHandler, searchableCollections, MAX_SEARCH_TERMS } from './search-handler.ts';
export { jobQueueHandlers } from './job-queue-handlers.ts';
export {
  customOperationHandler,
  resourceOperationHandlers,
  type CustomOperationSpec,
  type ResourceOperationSpec,
} from './custom-service.ts';
export { openApiHandler } from './openapi-handler.ts';
export { healthHandlers } from './health-handlers.ts';
export { settingHandlers, settingPrincipal } from './setting-handlers.ts';
export { serviceTools } from './service-tools.ts';
export type {
  ApiContext,
  ApiDefinition,
  JobQueuePort,
  JobQueueSpec,
  JobTypeSpec,
  ReadinessCheck,
  ServiceRuntime,
  ServiceTools,
  SettingsPort,
} from './api-definition.ts';
