import type { Maybe } from '../storage/index.ts';

/** Setting values per principal: SqliteSettingsStore answers at once, PostgresSettingsStore with promises. */
export interface SettingsStore {
  read(principal: string, name: string): Maybe<Record<string, unknown> | undefined>;
  write(principal: string, name: string, value: Record<string, unknown>): Maybe<void>;
}
