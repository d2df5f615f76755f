import type pg from 'pg';
import { isoNow } from '../storage/index.ts';
import { query } from '../storage/postgres/queries.ts';
import type { SettingsStore } from './settings-store.ts';

/** The settings table in PostgreSQL: SQLite's columns. */
export const SETTINGS_TABLES = `
  CREATE TABLE IF NOT EXISTS settings (
    principal text NOT NULL,
    name text NOT NULL,
    value text NOT NULL,
    updated_at text NOT NULL,
    PRIMARY KEY (principal, name)
  );`;

const WRITE =
  'INSERT INTO settings (principal, name, value, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (principal, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at';
const WRITE_IF_ABSENT =
  'INSERT INTO settings (principal, name, value, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (principal, name) DO NOTHING';
const WRITE_IF_STILL =
  'UPDATE settings SET value = $1, updated_at = $2 WHERE principal = $3 AND name = $4 AND value = $5';

/** Setting values per principal in PostgreSQL, shared by every instance: one JSON value per principal and setting name. */
export class PostgresSettingsStore implements SettingsStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async read(principal: string, name: string): Promise<Record<string, unknown> | undefined> {
    const { rows } = await query<{ value: string }>(
      this.#pool,
      'SELECT value FROM settings WHERE principal = $1 AND name = $2',
      [principal, name],
    );
    return rows[0] === undefined ? undefined : (JSON.parse(rows[0].value) as Record<string, unknown>);
  }

  /** `expected` is compared as the JSON text stored, which is what JSON.stringify() of the value read gives. */
  async write(
    principal: string,
    name: string,
    value: Record<string, unknown>,
    expected?: Record<string, unknown> | null,
  ): Promise<boolean> {
    const text = JSON.stringify(value);
    const [statement, values] =
      expected === undefined
        ? [WRITE, [principal, name, text, isoNow()]]
        : expected === null
          ? [WRITE_IF_ABSENT, [principal, name, text, isoNow()]]
          : [WRITE_IF_STILL, [text, isoNow(), principal, name, JSON.stringify(expected)]];
    const { rowCount } = await query(this.#pool, statement, values);
    return rowCount === 1;
  }
}
