import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { inTransaction } from '../storage/sqlite/open-database.ts';
import {
  expiryOf,
  issuedClient,
  scopesColumn,
  UNKNOWN_TOKEN,
  verifySql,
  newToken,
  tokenHash as hashOf,
  unixNow as now,
  verificationOf,
  type IssueOptions,
  type TokenRow,
  type TokenStore,
  type Verification,
} from './token-store.ts';

/**
 * The token store in the server's SQLite file, so the token CLI (another process) and every server
 * on the same DATABASE_URL see one truth. verify() reads the row each time it is called (one indexed
 * lookup); authenticate() reuses an answer for at most 500 ms, so a revocation or refusal made by
 * another process is honoured within half a second.
 */
export class SqliteTokenStore implements TokenStore {
  readonly #db: DatabaseSync;
  #verifyStatement: StatementSync | undefined;

  constructor(db: DatabaseSync) {
    this.#db = db;
    db.exec(`
      CREATE TABLE IF NOT EXISTS auth_clients (
        name TEXT PRIMARY KEY NOT NULL,
        refused INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS auth_grants (
        grant_id INTEGER PRIMARY KEY AUTOINCREMENT,
        client TEXT NOT NULL REFERENCES auth_clients (name),
        user_name TEXT NOT NULL DEFAULT '',
        revoked INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        UNIQUE (client, user_name)
      );
      CREATE TABLE IF NOT EXISTS auth_tokens (
        token_hash TEXT PRIMARY KEY NOT NULL,
        grant_id INTEGER NOT NULL REFERENCES auth_grants (grant_id),
        expires_at INTEGER,
        revoked INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        expires_at_ms INTEGER,
        scopes TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX IF NOT EXISTS auth_tokens__grant ON auth_tokens (grant_id);
    `);
    addMillisecondExpiry(db);
    addScopes(db);
    addUnknownTokenRow(db);
  }

  issue({ client: name, user, ttlSeconds, scopes }: IssueOptions): string {
    const client = issuedClient(name);
    const token = newToken();
    const granted = scopesColumn(scopes);
    inTransaction(this.#db, () => {
      this.#db
        .prepare('INSERT INTO auth_clients (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING')
        .run(client, now());
      this.#db
        .prepare(
          'INSERT INTO auth_grants (client, user_name, created_at) VALUES (?, ?, ?) ON CONFLICT (client, user_name) DO UPDATE SET revoked = 0',
        )
        .run(client, user ?? '', now());
      const grant = this.#db
        .prepare('SELECT grant_id FROM auth_grants WHERE client = ? AND user_name = ?')
        .get(client, user ?? '') as { grant_id: number };
      const expiry = expiryOf(ttlSeconds);
      this.#db
        .prepare(
          'INSERT INTO auth_tokens (token_hash, grant_id, expires_at, expires_at_ms, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(hashOf(token), grant.grant_id, expiry.seconds, expiry.ms, granted, now());
    });
    return token;
  }

  verify(token: string): Verification {
    // Prepared once: this runs on every authenticated request.
    this.#verifyStatement ??= this.#db.prepare(verifySql('?'));
    return verificationOf(this.#verifyStatement.get(hashOf(token)) as TokenRow | undefined);
  }

  // Every write in a transaction of its own (inTransaction): a failed commit throws, and nothing
  // is written into a database file that was removed or replaced.
  revoke(token: string): boolean {
    return inTransaction(
      this.#db,
      () =>
        Number(
          this.#db.prepare('UPDATE auth_tokens SET revoked = 1 WHERE token_hash = ? AND revoked = 0').run(hashOf(token))
            .changes,
        ) > 0,
    );
  }

  revokeGrant(client: string, user?: string): boolean {
    return inTransaction(this.#db, () => {
      const grant = this.#db
        .prepare('SELECT grant_id FROM auth_grants WHERE client = ? AND user_name = ?')
        .get(client, user ?? '') as { grant_id: number } | undefined;
      if (grant === undefined) return false;
      this.#db.prepare('UPDATE auth_grants SET revoked = 1 WHERE grant_id = ?').run(grant.grant_id);
      // Re-granting later must not bring old tokens back to life.
      this.#db.prepare('UPDATE auth_tokens SET revoked = 1 WHERE grant_id = ?').run(grant.grant_id);
      return true;
    });
  }

  refuseClient(client: string): void {
    inTransaction(this.#db, () => {
      this.#db
        .prepare(
          'INSERT INTO auth_clients (name, refused, created_at) VALUES (?, 1, ?) ON CONFLICT (name) DO UPDATE SET refused = 1',
        )
        .run(client, now());
    });
  }
}

/**
 * Files made before expiry was kept in ms have only `expires_at` (whole seconds): the column is added
 * and filled from it, so every token issued before keeps exactly the lifetime it had. In one
 * IMMEDIATE transaction, so two processes opening the file at once add it once.
 */
function addMillisecondExpiry(db: DatabaseSync): void {
  addTokenColumn(db, 'expires_at_ms', () => {
    db.exec('ALTER TABLE auth_tokens ADD COLUMN expires_at_ms INTEGER');
    db.exec('UPDATE auth_tokens SET expires_at_ms = expires_at * 1000 WHERE expires_at IS NOT NULL');
  });
}

/** Files made before tokens carried scopes: every token issued before keeps none, as it had. */
function addScopes(db: DatabaseSync): void {
  addTokenColumn(db, 'scopes', () => db.exec("ALTER TABLE auth_tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT ''"));
}

/**
 * Stores UNKNOWN_TOKEN's row once, in one IMMEDIATE transaction (two processes may open the file at
 * once). A file that cannot take it now (a full disk, a read-only file) still serves: unknown tokens
 * are refused from no row until a start that can store it.
 */
function addUnknownTokenRow(db: DatabaseSync): void {
  const stored = () =>
    db.prepare('SELECT 1 FROM auth_tokens WHERE token_hash = ?').get(UNKNOWN_TOKEN.hash) !== undefined;
  if (stored()) return;
  try {
    inTransaction(db, () => {
      if (stored()) return;
      db.prepare('INSERT INTO auth_clients (name, created_at) VALUES (?, 0) ON CONFLICT (name) DO NOTHING').run(
        UNKNOWN_TOKEN.client,
      );
      db.prepare(
        "INSERT INTO auth_grants (client, user_name, revoked, created_at) VALUES (?, '', 1, 0) ON CONFLICT (client, user_name) DO NOTHING",
      ).run(UNKNOWN_TOKEN.client);
      db.prepare(
        "INSERT INTO auth_tokens (token_hash, grant_id, revoked, created_at) SELECT ?, grant_id, 1, 0 FROM auth_grants WHERE client = ? AND user_name = ''",
      ).run(UNKNOWN_TOKEN.hash, UNKNOWN_TOKEN.client);
    });
  } catch {
    // Nothing to do: see above.
  }
}

/** Adds a column to auth_tokens once, in one IMMEDIATE transaction (two processes may open the file at once). */
function addTokenColumn(db: DatabaseSync, name: string, add: () => void): void {
  const hasColumn = () =>
    (db.prepare('PRAGMA table_info(auth_tokens)').all() as { name: string }[]).some((column) => column.name === name);
  if (hasColumn()) return;
  inTransaction(db, () => {
    if (!hasColumn()) add();
  });
}
