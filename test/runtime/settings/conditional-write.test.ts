import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  PostgresSettingsStore,
  SETTINGS_TABLES,
  SqliteSettingsStore,
  type SettingsStore,
} from '../../../runtime/settings/index.ts';
import { openDatabase } from '../../../runtime/storage/index.ts';
import { connectPostgres } from '../../../runtime/storage/postgres/connect.ts';
import { newTestDatabase, testEngine } from '../../support/test-database.ts';

const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

/** Two stores on one database, as two instances of a server have. */
async function twoInstances(): Promise<[SettingsStore, SettingsStore]> {
  const url = await newTestDatabase();
  if (testEngine() === 'sqlite') {
    const path = url.slice('sqlite:'.length);
    return [new SqliteSettingsStore(openDatabase(path)), new SqliteSettingsStore(openDatabase(path))];
  }
  const pool = await connectPostgres(url, { size: 2 });
  pools.push(pool);
  await pool.query(SETTINGS_TABLES);
  return [new PostgresSettingsStore(pool), new PostgresSettingsStore(pool)];
}

// A write made on what the caller read (If-Match) is made only while that is still what is stored,
// whichever instance wrote in between: the check before it is not enough across instances.
describe(`a setting written only on the value it expects (${testEngine()})`, () => {
  it('writes over the expected value, and refuses, writing nothing, once another has been written', async () => {
    const [one, other] = await twoInstances();
    expect(await one.write('user:ann', 'gui/lang', { lang: 'en' })).toBe(true);
    const read = (await one.read('user:ann', 'gui/lang'))!;
    expect(await other.write('user:ann', 'gui/lang', { lang: 'de' }, read)).toBe(true);
    // Written on what it read, after the other's write: refused.
    expect(await one.write('user:ann', 'gui/lang', { lang: 'fr' }, read)).toBe(false);
    expect(await one.read('user:ann', 'gui/lang')).toEqual({ lang: 'de' });
  });

  it('null expects no value: the first write only', async () => {
    const [one, other] = await twoInstances();
    expect(await one.write('client:app', 'gui/lang', { lang: 'en' }, null)).toBe(true);
    expect(await other.write('client:app', 'gui/lang', { lang: 'de' }, null)).toBe(false);
    expect(await other.read('client:app', 'gui/lang')).toEqual({ lang: 'en' });
    // Another principal's value is another row.
    expect(await other.write('user:ann', 'gui/lang', { lang: 'de' }, null)).toBe(true);
  });

  it('a value read back with members of every kind is the one expected', async () => {
    const [one] = await twoInstances();
    const value = { lang: 'zh-Hant-TW', size: 1e21, ratio: 0.1, tags: ['a', 'ü😀'], nested: { on: true } };
    await one.write('user:ann', 'gui/view', value);
    const read = (await one.read('user:ann', 'gui/view'))!;
    expect(await one.write('user:ann', 'gui/view', { ...value, size: 2 }, read)).toBe(true);
  });
});
