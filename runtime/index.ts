// The runtime's public API: what generated code and other Koa apps import.
export * from './errors/index.ts';
export * from './http/index.ts';
export * from './routing/index.ts';
export * from './storage/index.ts';
export * from './representation/index.ts';
export * from './resources/index.ts';
export * from './services/index.ts';
export type { ApiContext, ApiDefinition, JobQueueSpec, JobTypeSpec, ServiceRuntime, ServiceTools } from './app/api-definition.ts';
export { createApi, type CreateApiOptions, type CreatedApi } from './app/create-api.ts';
export { configFromEnvironment, ConfigError, type ServerConfig } from './app/config.ts';
export * from './server/index.ts';
export * from './presentation/index.ts';
export * from './caching/index.ts';
export * from './auth/index.ts';
export * from './limits/index.ts';
export * from './jobs/index.ts';
export * from './settings/index.ts';
export * from './versions/index.ts';
