import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { MAX_CACHED_STATEMENTS, StatementCache } from '../../../../runtime/storage/sqlite/statement-cache.ts';

describe('the prepared statements of a connection', () => {
  it('are prepared once per SQL text and answer as SQLite does', () => {
    const cache = new StatementCache(new DatabaseSync(':memory:'));
    expect(cache.get('SELECT 1 AS one')).toBe(cache.get('SELECT 1 AS one'));
    expect(cache.get('SELECT 1 AS one').get()).toEqual({ one: 1 });
  });

  it('stay bounded however many different texts are asked for, and still answer each', () => {
    const cache = new StatementCache(new DatabaseSync(':memory:'), { arrays: true });
    for (let index = 0; index < 3 * MAX_CACHED_STATEMENTS; index += 1) {
      expect(cache.get(`SELECT ${index} AS n`).get()).toEqual([index]);
      expect(cache.size).toBeLessThanOrEqual(MAX_CACHED_STATEMENTS);
    }
    // The texts a server repeats are found again after the cache started afresh.
    const statement = cache.get('SELECT 1 AS one');
    expect(cache.get('SELECT 1 AS one')).toBe(statement);
  });
});
