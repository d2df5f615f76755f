import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SqliteJobTable } from '../../../../runtime/jobs/index.ts';
import { FtsSearcher } from '../../../../runtime/storage/sqlite/fts-search.ts';
import { compilations } from '../../../support/sqlite-compilations.ts';

const PAGES = [
  [1, 0],
  [2, 1],
  [3, 0],
] as const;

describe('paged SQLite statements besides lists', () => {
  it("a search's page is compiled once, whatever its limit", () => {
    const db = new DatabaseSync(':memory:');
    db.exec(`CREATE VIRTUAL TABLE docs USING fts5(body);
      INSERT INTO docs (body) VALUES ('apple pie'), ('apple tart'), ('apple juice');`);
    const searcher = new FtsSearcher(db);
    const compiled = compilations(db);
    const query = { fts: 'docs', key: 'rowid', match: '"apple"*' } as const;
    expect(searcher.run({ ...query, limit: 10, offset: 0 }, Number.POSITIVE_INFINITY).total).toBe(3);
    const afterFirst = compiled();
    for (const [limit, offset] of PAGES) {
      const { keys, total } = searcher.run({ ...query, limit, offset }, Number.POSITIVE_INFINITY);
      expect(keys).toHaveLength(Math.min(limit, 3 - offset));
      expect(total).toBe(3);
    }
    expect(compiled()).toBe(afterFirst);
  });

  it("a caller's list of jobs is compiled once, whatever its limit", () => {
    const db = new DatabaseSync(':memory:');
    const jobs = new SqliteJobTable(db);
    const caller = { client: 'app', user: 'ann', scopes: ['jobs:run'] };
    for (let index = 0; index < 3; index += 1) jobs.insert('work', 'tidy', {}, caller);
    const owner = JSON.stringify(['app', 'ann']);
    const compiled = compilations(db);
    expect(jobs.list('work', owner, { limit: 10, offset: 0 }).total).toBe(3);
    const afterFirst = compiled();
    for (const [limit, offset] of PAGES) {
      const listed = jobs.list('work', owner, { limit, offset });
      expect(listed.jobs).toHaveLength(Math.min(limit, 3 - offset));
      expect(listed.total).toBe(3);
    }
    expect(compiled()).toBe(afterFirst);
  });
});
