export { SqliteSettingsStore } from './sqlite-settings-store.ts';
