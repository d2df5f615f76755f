import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { issueToken } from '../../support/token-cli.ts';

describe('PUT/GET /settings/{v}/gui/lang', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  it.each([
    ['fr-FR', 'fr-FR'],
    ['fr-fr', 'fr-FR'],
    ['EN', 'en'],
    ['zh-hant-tw', 'zh-Hant-TW'],
  ])('stores %s in canonical form %s and GET returns it', async (given, want) => {
    await api.put('/settings/v1/gui/lang', { lang: given }).expect(200, { lang: want });
    await api.get('/settings/v2/gui/lang').expect(200, { lang: want });
  });

  it.each([['not a tag'], ['e'], [''], ['en_US_'], [42]])('a malformed tag %j gets 400 naming lang', async (lang) => {
    const response = await api.put('/settings/v1/gui/lang', { lang }).expect(400);
    expect(response.body.errors[0].field).toBe('lang');
  });

  it('keeps one value per client, and per user when the token acts for one', async () => {
    const other = issueToken(api.databaseUrl, 'another-client');
    const userToken = issueToken(api.databaseUrl, 'another-client', { user: 'ann' });
    await api.put('/settings/v1/gui/lang', { lang: 'de-DE' }).expect(200);
    const as = (token: string) => ({ 'User-Agent': 'e2e', Authorization: `Bearer ${token}` });
    await api.raw().put('/settings/v1/gui/lang').set(as(other)).send({ lang: 'ja-JP' }).expect(200);
    await api.raw().put('/settings/v1/gui/lang').set(as(userToken)).send({ lang: 'it-IT' }).expect(200);
    await api.get('/settings/v1/gui/lang').expect(200, { lang: 'de-DE' });
    await api.raw().get('/settings/v1/gui/lang').set(as(other)).expect(200, { lang: 'ja-JP' });
    await api.raw().get('/settings/v1/gui/lang').set(as(userToken)).expect(200, { lang: 'it-IT' });
  });
});
