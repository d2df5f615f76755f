import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { headerOf } from '../../support/header-of.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Every property name at every depth, to check they are all lowercase snake_case. */
function propertyNames(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(propertyNames);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, member]) => [key, ...propertyNames(member)]);
  return [];
}

describe('resource paths of every collection, in both versions', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  const bodies: Record<string, Record<string, unknown>> = {
    orders: { item: 'apples', quantity: 2 },
    trades: { trade_name: 'harvest' },
    users: { user_name: 'ann' },
    accounts: { user_name: 'ann', e_mail: 'ann@example.test' },
  };

  for (const version of ['v1', 'v2']) {
    for (const [collection, body] of Object.entries(bodies)) {
      it(`${version} ${collection}: POST 201 with the creation result, GET one and list, PUT, PATCH, DELETE 204 then 404`, async () => {
        const unique = collection === 'users' ? { user_name: `ann-${version}` } : {};
        const created = await api.post(`/${version}/${collection}`, { ...body, ...unique }).expect(201);
        expect(Object.keys(created.body).sort()).toEqual(['created_at', 'identity', 'links', 'uri']);
        expect(created.body.uri).toBe(`${api.url}/${version}/${collection}/${created.body.identity}`);
        expect(headerOf(created, 'location')).toBe(created.body.uri);
        expect(created.body.created_at).toMatch(ISO_UTC);
        expect(created.body.links).toContainEqual({ rel: 'self', href: created.body.uri });
        for (const link of created.body.links) expect(Object.keys(link).sort()).toEqual(['href', 'rel']);

        const path = `/${version}/${collection}/${created.body.identity}`;
        const one = await api.get(path).expect(200);
        expect(one.body.created_at).toBe(created.body.created_at);
        for (const name of propertyNames(one.body)) expect(name).toMatch(SNAKE);
        expect(headerOf(one, 'content-type')).toBe('application/json;charset=UTF-8');

        const list = await api.get(`/${version}/${collection}`).expect(200);
        expect(Array.isArray(list.body)).toBe(true);
        expect((await api.get(`/${version}/${collection}/(list)`).expect(200)).body).toEqual(list.body);

        const replaced = await api.put(path, { ...body, ...unique }).expect(200);
        expect(replaced.body).toMatchObject({
          ...(collection === 'accounts' ? { user_name: 'ann' } : { ...body, ...unique }),
        });
        await api.patch(path, {}).expect(200);
        await api.delete(path).expect(204);
        await api.get(path).expect(404);
      });
    }
  }

  it('lists return a default page of 50, more with limit (up to 500), paging in headers only', async () => {
    for (let i = 0; i < 55; i++) await api.post('/v1/orders', { item: `bulk ${i}`, quantity: 1 }).expect(201);
    const first = await api.get('/v1/orders').expect(200);
    expect(first.body).toHaveLength(50);
    const total = Number(headerOf(first, 'x-total-count'));
    expect(total).toBeGreaterThanOrEqual(55);
    expect(headerOf(first, 'link')).toContain(`<${api.url}/v1/orders?limit=50&offset=50>; rel="next"`);
    const more = await api.get('/v1/orders?limit=100').expect(200);
    expect(more.body).toHaveLength(total);
    const last = await api.get(`/v1/orders?limit=10&offset=${total - 5}`).expect(200);
    expect(last.body).toHaveLength(5);
    expect(headerOf(last, 'link')).toContain('rel="prev"');
    expect(headerOf(last, 'link')).not.toContain('rel="next"');
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=x', 'limit'],
      ['offset=-1', 'offset'],
      ['colour=red', 'colour'],
    ] as const) {
      const refused = await api.get(`/v1/orders?${query}`).expect(400);
      expect(refused.body.errors[0].field).toBe(field);
    }
  });

  it('filters on declared fields in the query string', async () => {
    await api.post('/v1/trades', { trade_name: 'wheat' }).expect(201);
    await api.post('/v1/trades', { trade_name: 'barley' }).expect(201);
    const wheat = await api.get('/v1/trades?trade_name=wheat').expect(200);
    expect(wheat.body.map((trade: { trade_name: string }) => trade.trade_name)).toEqual(['wheat']);
    const made = [];
    for (const quantity of [2, 3, 2])
      made.push((await api.post('/v2/orders', { item: `filtered ${quantity}`, quantity }).expect(201)).body.identity);
    const twos = await api.get('/v2/orders?quantity=2&limit=500').expect(200);
    const ids = twos.body.map((order: { order_id: number }) => order.order_id);
    expect(ids).toEqual(expect.arrayContaining([made[0], made[2]]));
    expect(ids).not.toContain(made[1]);
    for (const order of twos.body) expect(order.quantity).toBe(2);
    await api.get('/v1/orders?quantity=two').expect(400);
  });

  it('the profiles aggregate is reached only through its user', async () => {
    const user = await api.post('/v1/users', { user_name: 'profiled' }).expect(201);
    const path = `/v1/users/${user.body.identity}/profiles`;
    await api.put(path, { full_name: 'Pro Filed', title: 'Dr' }).expect(200, { full_name: 'Pro Filed', title: 'Dr' });
    await api.get(path).expect(200, { full_name: 'Pro Filed', title: 'Dr' });
    await api.get(path.replace('/v1/', '/v2/')).expect(200, { full_name: 'Pro Filed', title: 'Dr' });
    const missingName = await api.put(path, { title: 'Dr' }).expect(400);
    expect(missingName.body.errors[0]).toMatchObject({ code: 'missing_field', field: 'full_name' });
    await api.get('/v1/users/999999/profiles').expect(404);
    await api.get('/v1/profiles').expect(404);
    await api.get(`/v1/profiles/${user.body.identity}`).expect(404);
    await api.delete(path).expect(405);
  });

  it('references are absolute URIs, inlined only with X-Expansion-Fields: true; written as URI or id', async () => {
    const order = await api.post('/v2/orders', { item: 'pears', quantity: 3 }).expect(201);
    const byUri = await api.post('/v2/trades', { trade_name: 'by uri', order: order.body.uri }).expect(201);
    const byId = await api.post('/v2/trades', { trade_name: 'by id', order: order.body.identity }).expect(201);
    for (const created of [byUri, byId]) {
      const trade = await api.get(`/v2/trades/${created.body.identity}`).expect(200);
      expect(trade.body.order).toBe(`${api.url}/v2/orders/${order.body.identity}`);
      const expanded = await api
        .get(`/v2/trades/${created.body.identity}`)
        .set('X-Expansion-Fields', 'true')
        .expect(200);
      expect(expanded.body.order).toMatchObject({ order_id: order.body.identity, item: 'pears', quantity: 3 });
      const notExpanded = await api
        .get(`/v2/trades/${created.body.identity}`)
        .set('X-Expansion-Fields', 'false')
        .expect(200);
      expect(notExpanded.body.order).toBe(trade.body.order);
    }
    const missing = await api.post('/v2/trades', { trade_name: 'ghost', order: 987654 }).expect(422);
    expect(missing.body.errors[0]).toMatchObject({ code: 'reference_not_found', field: 'order' });
    const wrongCollection = await api
      .post('/v2/trades', { trade_name: 'wrong', order: `${api.url}/v2/users/1` })
      .expect(400);
    expect(wrongCollection.body.errors[0].field).toBe('order');
    await api.delete(`/v2/orders/${order.body.identity}`).expect(409);
  });

  it('X-Result-Fields returns only the named fields, per item in lists; an unknown name → 400 naming it', async () => {
    const order = await api.post('/v1/orders', { item: 'projected', quantity: 1 }).expect(201);
    const path = `/v1/orders/${order.body.identity}`;
    const one = await api.get(path).set('X-Result-Fields', 'item, quantity').expect(200);
    expect(Object.keys(one.body)).toEqual(['item', 'quantity']);
    const list = await api.get('/v1/orders?limit=3').set('X-Result-Fields', 'order_id').expect(200);
    expect(list.body.length).toBeGreaterThan(0);
    for (const item of list.body) expect(Object.keys(item)).toEqual(['order_id']);
    const unknown = await api.get(path).set('X-Result-Fields', 'item,colour').expect(400);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'unknown_result_field', field: 'colour' });
  });

  it('null and absent fields are omitted at every depth', async () => {
    const created = await api.post('/v2/accounts', { user_name: 'no profile', e_mail: 'np@example.test' }).expect(201);
    const account = await api.get(`/v2/accounts/${created.body.identity}`).expect(200);
    expect(account.body).not.toHaveProperty('profile');
    await api.patch(`/v2/accounts/${created.body.identity}`, { profile: { state: 'active' } }).expect(200);
    expect((await api.get(`/v2/accounts/${created.body.identity}`).expect(200)).body.profile).toEqual({
      state: 'active',
    });
    await api.patch(`/v2/accounts/${created.body.identity}`, { profile: null }).expect(200);
    expect((await api.get(`/v2/accounts/${created.body.identity}`).expect(200)).body).not.toHaveProperty('profile');
    const trade = await api.post('/v1/trades', { trade_name: 'no order' }).expect(201);
    expect((await api.get(`/v1/trades/${trade.body.identity}`).expect(200)).body).not.toHaveProperty('order');
    // In a list too, row by row: the member is left out, the others kept in their order.
    const listed = (await api.get('/v1/trades?limit=100').expect(200)).body as Record<string, unknown>[];
    const row = listed.find((member) => member.trade_id === trade.body.identity)!;
    expect(Object.keys(row)).toEqual(['trade_id', 'trade_name', 'created_at']);
  });
});
