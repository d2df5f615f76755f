export type { SettingsStore } from './settings-store.ts';
export { SqliteSettingsStore } from './sqlite-settings-store.ts';
export { PostgresSettingsStore, SETTINGS_TABLES } from './postgres-settings-store.ts';
