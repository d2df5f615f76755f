import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { testEngine } from '../../support/test-database.ts';

/** Every presentation a client may ask for, `field` being one member of the resource: none of them is another version of the data. */
const presentations = (field: string): ReadonlyArray<Record<string, string>> => [
  {},
  { 'X-Pretty-Print': 'false' },
  { 'X-Result-Fields': field },
  { 'X-Expansion-Fields': 'true' },
  { 'X-Result-Fields': field, 'X-Pretty-Print': 'false', 'X-Expansion-Fields': 'true' },
  { 'Accept-Encoding': 'gzip' },
];
const PRESENTATIONS = presentations('quantity');

describe(`one entity tag per version of the data, whatever the presentation (${testEngine()})`, () => {
  let api: TestApi;
  let uri: string;
  let trade: string;
  let profile: string;
  beforeAll(async () => {
    api = await startApi();
    // Long enough in bytes to be gzipped (over the 1 KiB threshold), within the 655 characters of a filterable string: 3 bytes each.
    const created = await api.post('/v1/orders', { item: `a mug, ${'€'.repeat(600)}`, quantity: 1 }).expect(201);
    uri = new URL(created.headers.location!).pathname;
    // A trade refers to the order: with X-Expansion-Fields its body inlines it, its tag stays its own.
    trade = new URL(
      (await api.post('/v1/trades', { trade_name: 'mug trade', order: created.body.order_id }).expect(201)).headers
        .location!,
    ).pathname;
    await api.put('/settings/v1/gui/lang', { lang: 'fr-FR' }).expect(200);
    const user = await api.post('/v1/users', { user_name: 'tagged' }).expect(201);
    profile = `${new URL(user.headers.location!).pathname}/profiles`;
    await api.put(profile, { full_name: 'Ann Tagged', state: 'active' }).expect(200);
  });
  afterAll(async () => api.close());

  const tagsOf = async (path: string, field = 'quantity') =>
    Promise.all(
      presentations(field).map(async (headers) => (await api.get(path).set(headers).expect(200)).headers.etag!),
    );
  const opaque = (tag: string) => tag.replace(/-gzip"$/, '"');

  it('a GET of one resource, a list, a search, a setting and an aggregate carries the same tag under every presentation, and Vary names them', async () => {
    for (const [path, field] of [
      [uri, 'quantity'],
      ['/v1/orders', 'quantity'],
      [trade, 'trade_name'],
      ['/v1/trades', 'trade_name'],
      ['/services/v1/search?q=mug&category=trades', 'trade_name'],
      ['/settings/v1/gui/lang', 'lang'],
      [profile, 'full_name'],
    ] as const) {
      const tags = await tagsOf(path, field);
      expect(new Set(tags.map(opaque)).size, `${path}: ${tags.join(' ')}`).toBe(1);
    }
    const vary = (await api.get(uri).expect(200)).headers.vary!;
    for (const header of ['X-Pretty-Print', 'X-Result-Fields', 'X-Expansion-Fields', 'Accept-Encoding'])
      expect(vary).toContain(header);
  });

  it('If-None-Match with a tag read under any presentation answers 304 under any other', async () => {
    const tags = await tagsOf(uri);
    for (const tag of tags) {
      for (const headers of PRESENTATIONS)
        await api
          .get(uri)
          .set({ ...headers, 'If-None-Match': tag })
          .expect(304);
    }
  });

  it('If-Match takes a tag read under any presentation of the current version, and refuses every tag of an older one', async () => {
    const older = await tagsOf(uri);
    let quantity = 1;
    for (const tag of older.slice(1)) {
      const current = (await tagsOf(uri))[PRESENTATIONS.indexOf(PRESENTATIONS[older.indexOf(tag)]!)]!;
      quantity += 1;
      await api.patch(uri, { quantity }).set('If-Match', current).expect(200);
    }
    for (const tag of older) {
      const refused = await api.patch(uri, { quantity: 99 }).set('If-Match', tag);
      expect(refused.status, tag).toBe(412);
      await api.get(uri).set('If-None-Match', tag).expect(200);
    }
    expect((await api.get(uri).expect(200)).body.quantity).toBe(quantity);
  });
});
