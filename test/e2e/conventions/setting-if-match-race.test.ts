import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api as generatedApi } from '../../../generated/api.ts';
import { configFromEnvironment, createApi, openBackend, tablesOf, type CreatedApi } from '../../../runtime/index.ts';
import type { SettingsStore } from '../../../runtime/settings/index.ts';
import { newTestDatabase } from '../../support/test-database.ts';
import { issueToken } from '../../support/token-cli.ts';

/**
 * Settings as two instances share them: once `between.next` is set, the next read is followed,
 * before its reader goes on, by another instance's write of `lang: 'xx'`.
 */
function withAnotherWriterBetween(store: SettingsStore, between: { next: boolean }): SettingsStore {
  return {
    read: async (principal, name) => {
      const value = await store.read(principal, name);
      if (between.next) {
        between.next = false;
        await store.write(principal, name, { lang: 'xx' });
      }
      return value;
    },
    write: (principal, name, value, expected) => store.write(principal, name, value, expected),
  };
}

// The If-Match check passes on the value read; the write must still not land on the other's.
describe('a setting written with If-Match when another instance writes between the check and the write', () => {
  let created: CreatedApi;
  let headers: Record<string, string>;
  const between = { next: false };
  beforeAll(async () => {
    const databaseUrl = await newTestDatabase();
    const backend = await openBackend(databaseUrl, { tables: tablesOf(generatedApi) });
    const config = configFromEnvironment({ DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1' });
    created = await createApi(generatedApi, {
      config,
      backend: {
        ...backend,
        settings: withAnotherWriterBetween(backend.settings, between),
        close: () => backend.close(),
      },
    });
    headers = { 'User-Agent': 'e2e', Authorization: `Bearer ${issueToken(databaseUrl, 'race')}` };
  });
  afterAll(async () => created.close());

  it('answers 412 and leaves the other write in place', async () => {
    const app = request(created.app.callback());
    await app.put('/settings/v1/gui/lang').set(headers).send({ lang: 'en' }).expect(200);
    const tag = (await app.get('/settings/v1/gui/lang').set(headers).expect(200)).headers.etag!;
    between.next = true;
    const refused = await app.put('/settings/v1/gui/lang').set(headers).set('If-Match', tag).send({ lang: 'de-DE' });
    expect(between.next).toBe(false);
    expect(refused.status).toBe(412);
    expect(refused.body.errors[0]).toMatchObject({ code: 'precondition_failed' });
    await app.get('/settings/v1/gui/lang').set(headers).expect(200, { lang: 'xx' });
  });
});
