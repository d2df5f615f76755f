import type { Maybe } from '../storage/index.ts';

/** Setting values per principal: SqliteSettingsStore answers at once, PostgresSettingsStore with promises. */
export interface SettingsStore {
  read(principal: string, name: string): Maybe<Record<string, unknown> | undefined>;
  /**
   * Stores `value`. With `expected`, only while the stored value is still that one (null: while none
   * is stored), so that a write made on what the caller read (If-Match) is not made on what another
   * wrote since. Answers whether it wrote: false only when `expected` no longer holds.
   */
  write(
    principal: string,
    name: string,
    value: Record<string, unknown>,
    expected?: Record<string, unknown> | null,
  ): Maybe<boolean>;
}
