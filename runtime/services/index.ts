export { serviceHandlers, type ServiceSpec } from './service-handlers.ts';
export { searchHandler, searchableCollections, MAX_SEARCH_TERMS } from './search-handler.ts';
export { jobQueueHandlers, jobUri, type JobQueuePort } from './job-queue-handlers.ts';
export { customOperationHandler, type CustomOperationSpec } from './custom-service.ts';
export { openApiHandler } from './openapi-handler.ts';
export { healthHandlers, type ReadinessCheck } from './health-handlers.ts';
export { settingHandlers, settingPrincipal, type SettingsPort } from './setting-handlers.ts';
export { serviceTools } from './service-tools.ts';
