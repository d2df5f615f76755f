import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { inTransaction, isoNow } from '../storage/index.ts';
import type { SettingsStore } from './settings-store.ts';

/**
 * Setting values per principal (a user, or a client acting for itself) in the server's SQLite
 * file: one JSON value per principal and setting name.
 */
export class SqliteSettingsStore implements SettingsStore {
  readonly #read: StatementSync;
  readonly #write: StatementSync;
  readonly #writeIfAbsent: StatementSync;
  readonly #writeIfStill: StatementSync;
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS settings (
      principal TEXT NOT NULL,
      name TEXT NOT NULL,
      value TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (principal, name)
    )`);
    this.#read = db.prepare('SELECT value FROM settings WHERE principal = ? AND name = ?');
    this.#write = db.prepare(
      'INSERT INTO settings (principal, name, value, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (principal, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    );
    this.#writeIfAbsent = db.prepare(
      'INSERT INTO settings (principal, name, value, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (principal, name) DO NOTHING',
    );
    this.#writeIfStill = db.prepare(
      'UPDATE settings SET value = ?, updated_at = ? WHERE principal = ? AND name = ? AND value = ?',
    );
  }

  read(principal: string, name: string): Record<string, unknown> | undefined {
    const row = this.#read.get(principal, name) as { value: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.value) as Record<string, unknown>);
  }

  /**
   * In a transaction of its own: a failed commit throws, and nothing is written into a replaced file.
   * `expected` is compared as the JSON text stored, which is what JSON.stringify() of the value read gives.
   */
  write(
    principal: string,
    name: string,
    value: Record<string, unknown>,
    expected?: Record<string, unknown> | null,
  ): boolean {
    const text = JSON.stringify(value);
    return inTransaction(this.#db, () => {
      if (expected === undefined) return this.#write.run(principal, name, text, isoNow()).changes === 1;
      if (expected === null) return this.#writeIfAbsent.run(principal, name, text, isoNow()).changes === 1;
      return this.#writeIfStill.run(text, isoNow(), principal, name, JSON.stringify(expected)).changes === 1;
    });
  }
}
