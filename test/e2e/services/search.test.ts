import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';

describe('GET /services/{v}/search', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
    await api.post('/v1/orders', { item: 'green apples', quantity: 2 }).expect(201);
    await api.post('/v1/orders', { item: 'red pears', quantity: 1 }).expect(201);
    await api.post('/v1/trades', { trade_name: 'apple harvest', order: 1 }).expect(201);
    for (let i = 0; i < 3; i++) await api.post('/v1/trades', { trade_name: `apple batch ${i}` }).expect(201);
  });
  afterAll(async () => api.close());

  it('finds resources of the category in their own representation', async () => {
    const response = await api.get('/services/v1/search?q=apple&category=orders').expect(200);
    expect(response.body).toEqual([{ order_id: 1, item: 'green apples', quantity: 2, created_at: expect.any(String) }]);
  });

  it('applies every representation rule: references as URIs, expansion, projection, paging headers', async () => {
    const plain = await api.get('/services/v2/search?q=harvest&category=trades').expect(200);
    expect(plain.body[0].order).toBe(`${api.url}/v2/orders/1`);
    const expanded = await api
      .get('/services/v2/search?q=harvest&category=trades')
      .set('X-Expansion-Fields', 'true')
      .expect(200);
    expect(expanded.body[0].order).toMatchObject({ order_id: 1, item: 'green apples' });
    const projected = await api
      .get('/services/v1/search?q=apple&category=trades&limit=2')
      .set('X-Result-Fields', 'trade_name')
      .expect(200);
    expect(projected.body).toHaveLength(2);
    for (const item of projected.body) expect(Object.keys(item)).toEqual(['trade_name']);
    expect(projected.headers['x-total-count']).toBe('4');
    expect(projected.headers.link).toContain('rel="next"');
  });

  it('sees every write at once: the index is kept in the same transaction', async () => {
    await api.get('/services/v1/search?q=plums&category=orders').expect(200, []);
    await api.post('/v1/orders', { item: 'plums', quantity: 9 }).expect(201);
    const found = await api.get('/services/v1/search?q=plums&category=orders').expect(200);
    expect(found.body).toHaveLength(1);
    await api.patch(`/v1/orders/${found.body[0].order_id}`, { item: 'cherries' }).expect(200);
    await api.get('/services/v1/search?q=plums&category=orders').expect(200, []);
    await api.delete(`/v1/orders/${found.body[0].order_id}`).expect(204);
    await api.get('/services/v1/search?q=cherries&category=orders').expect(200, []);
  });

  it.each([
    ['missing q', '/services/v1/search?category=orders', 'q'],
    ['blank q', '/services/v1/search?q=%20&category=orders', 'q'],
    ['limit out of bounds, every collection searched', '/services/v1/search?q=x&limit=100000', 'limit'],
    ['unknown category', '/services/v1/search?q=x&category=planets', 'category'],
    ['limit out of bounds', '/services/v1/search?q=x&category=orders&limit=0', 'limit'],
  ])('%s → 400 naming the parameter', async (_name, path, field) => {
    const response = await api.get(path).expect(400);
    expect(response.body.errors[0].field).toBe(field);
  });
});
