import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SqliteTokenStore } from '../../../runtime/auth/index.ts';
import { IN_MEMORY, openDatabase } from '../../../runtime/storage/index.ts';

/** What one statement's get() read: the statement's text and the row it answered. */
interface Read {
  readonly sql: string;
  readonly row: unknown;
}

/** `db` as the store sees it, recording every row a prepared statement's get() reads. */
function recordingDatabase(db: DatabaseSync): { db: DatabaseSync; reads: Read[] } {
  const reads: Read[] = [];
  const recordingStatement = (sql: string, statement: StatementSync) =>
    new Proxy(statement, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (property === 'get')
          return (...parameters: never[]) => {
            const row: unknown = target.get(...parameters);
            reads.push({ sql, row });
            return row;
          };
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  const proxy = new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'prepare') return (sql: string) => recordingStatement(sql, target.prepare(sql));
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: proxy, reads };
}

describe('an unknown token and a revoked one', () => {
  it('take one path: the same statement, one row of the same shape each, refused by the same check', () => {
    const { db, reads } = recordingDatabase(openDatabase(IN_MEMORY));
    const store = new SqliteTokenStore(db);
    const revoked = store.issue({ client: 'web', user: 'ann', scopes: ['notes:read'] });
    store.revoke(revoked);
    const revokedGrant = store.issue({ client: 'web', user: 'bob' });
    store.revokeGrant('web', 'bob');
    const unknown = 'Zm9yZ2VkLXRva2VuLW5vYm9keS1ldmVyLWlzc3VlZC1pdA';

    const readsOf = (token: string) => {
      reads.length = 0;
      expect(store.verify(token)).toEqual({ ok: false, reason: 'invalid' });
      return reads.slice();
    };
    const [ofRevoked, ofRevokedGrant, ofUnknown] = [readsOf(revoked), readsOf(revokedGrant), readsOf(unknown)];
    for (const path of [ofRevoked, ofRevokedGrant, ofUnknown]) {
      expect(path).toHaveLength(1);
      expect(path[0]!.row).toBeDefined();
    }
    expect(ofUnknown[0]!.sql).toBe(ofRevoked[0]!.sql);
    expect(Object.keys(ofUnknown[0]!.row as object)).toEqual(Object.keys(ofRevoked[0]!.row as object));
    // The unknown token is answered from a stored revoked token, as the revoked one is.
    expect(ofUnknown[0]!.row).toMatchObject({ token_revoked: 1 });
    expect(ofRevoked[0]!.row).toMatchObject({ token_revoked: 1 });
  });

  it('the blank client, which holds the row unknown tokens are answered from, is never issued a token', () => {
    const store = new SqliteTokenStore(openDatabase(IN_MEMORY));
    expect(() => store.issue({ client: '' })).toThrow(/must not be blank/);
    expect(() => store.issue({ client: '  ' })).toThrow(/must not be blank/);
  });

  it('a file that already holds the row is not written to at start', () => {
    const db = openDatabase(IN_MEMORY);
    new SqliteTokenStore(db);
    const changesBefore = (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    new SqliteTokenStore(db);
    expect((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n).toBe(changesBefore);
  });
});
