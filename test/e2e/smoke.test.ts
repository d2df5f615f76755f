import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../support/start-api.ts';

describe('smoke', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  it('creates and reads an order', async () => {
    const created = await api.post('/v1/orders', { item: 'apple', quantity: 2 }).expect(201);
    expect(created.body.uri).toBe(`${api.url}/v1/orders/1`);
    const read = await api.get('/v1/orders/1').expect(200);
    expect(read.body).toMatchObject({ order_id: 1, item: 'apple', quantity: 2 });
  });
});
