// The runtime's public API: what generated code and other Koa apps import.
export * from './errors/index.ts';
export * from './http/index.ts';
export * from './routing/index.ts';
export * from './storage/index.ts';
export * from './representation/index.ts';
export * from './resources/index.ts';
export * from './services/index.ts';

export { createApi, tablesOf, type CreateApiOptions, type CreatedApi } from './app/create-api.ts';
export { openBackend, openTokenStore, type Backend, type OpenBackendOptions } from './app/open-backend.ts';
export { openCounters, type OpenedCounters } from './app/open-counters.ts';
export { configFromEnvironment, ConfigError, type ServerConfig } from './app/config.ts';
export * from './server/index.ts';
export * from './logging/index.ts';
export * from './metrics/index.ts';
export * from './presentation/index.ts';
export * from './caching/index.ts';
export * from './auth/index.ts';
export * from './limits/index.ts';
export * from './jobs/index.ts';
export * from './settings/index.ts';
export * from './versions/index.ts';
export * from './docs/index.ts';
