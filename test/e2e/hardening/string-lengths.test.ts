import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRING_LENGTHS } from '@convapi/dsl';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { headerOf } from '../../support/header-of.ts';

/**
 * `length` characters of three bytes each in UTF-8 (the most one UTF-16 unit takes), none repeating
 * in a pattern PostgreSQL could compress: the largest index entry a string of that length makes.
 */
function widest(length: number): string {
  let state = 7;
  return Array.from({ length }, () => {
    state = (state * 48_271) % 2_147_483_647;
    // U+4E00..U+9FFF: CJK ideographs, three bytes each, no surrogates.
    return String.fromCharCode(0x4e00 + (state % 0x5200));
  }).join('');
}

/** Every string field has a length bound: declared, or the default (smaller for an indexed one); a longer value is a 400 naming the field. */
describe('string lengths', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { JOB_WORKERS: '0' } });
  });
  afterAll(async () => api.close());

  const count = async (path: string) => Number(headerOf(await api.get(path).expect(200), 'x-total-count'));
  const refusal = (body: unknown) => (body as { errors: { code: string; field?: string }[] }).errors[0];

  it('an indexed string without maxLength holds its default bound, even of the widest characters, and is found by its filter', async () => {
    const item = widest(STRING_LENGTHS.indexed);
    expect(Buffer.byteLength(item)).toBe(3 * STRING_LENGTHS.indexed);
    await api.post('/v1/orders', { item, quantity: 1 }).expect(201);
    const found = await api.get(`/v1/orders?item=${encodeURIComponent(item)}`).expect(200);
    expect((found.body as { item: string }[]).map((order) => order.item)).toEqual([item]);
  });

  it('one character more is 400 value_too_long naming the field, and nothing is written (once answered 500 on PostgreSQL)', async () => {
    const before = await count('/v1/orders');
    for (const item of [widest(STRING_LENGTHS.indexed + 1), 'x'.repeat(900 * 1024)]) {
      const response = await api.post('/v1/orders', { item, quantity: 1 }).expect(400);
      expect(refusal(response.body)).toMatchObject({ code: 'value_too_long', field: 'item' });
    }
    expect(await count('/v1/orders')).toBe(before);
  });

  it('a string that is not indexed takes the larger default; a nested one is named by its path', async () => {
    const title = 'd'.repeat(STRING_LENGTHS.default);
    await api.post('/v1/accounts', { user_name: 'ann', e_mail: 'ann@example.test', title }).expect(201);
    const longer = await api
      .post('/v1/accounts', { user_name: 'bob', e_mail: 'bob@example.test', title: `${title}r` })
      .expect(400);
    expect(refusal(longer.body)).toMatchObject({ code: 'value_too_long', field: 'title' });
    const nested = await api
      .post('/v2/accounts', { user_name: 'cy', e_mail: 'cy@example.test', profile: { title: `${title}r` } })
      .expect(400);
    expect(refusal(nested.body)).toMatchObject({ code: 'value_too_long', field: 'profile.title' });
  });

  it('a declared maxLength is the bound, above the default too', async () => {
    await api.post('/v1/pets', { pet_name: 'Rex' }).expect(201);
    const report = 'r'.repeat(STRING_LENGTHS.default * 10);
    const created = await api.post('/v1/visits', { pet: 1, scheduled_at: '2026-12-02T09:30:00Z', report }).expect(201);
    expect((await api.get(new URL((created.body as { uri: string }).uri).pathname).expect(200)).body).toMatchObject({
      report,
    });
  });
});
