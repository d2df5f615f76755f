import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';

/**
 * A query or identifier is read only in the form the conventions give it: percent-encoded UTF-8
 * query parameters, and integer identifiers written as responses write them. Anything else is a
 * malformed request (400 naming the parameter), never quietly read as some other value.
 */
describe('query encoding and identifier forms', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
    await api.post('/v1/orders', { item: '%', quantity: 1 }).expect(201);
    await api.post('/v1/orders', { item: 'café', quantity: 2 }).expect(201);
  });
  afterAll(async () => api.close());

  it.each([
    ['a lone %', '/v1/orders?item=%', 'item'],
    ['% and one hex digit', '/v1/orders?item=%4', 'item'],
    ['a truncated UTF-8 sequence', '/v1/orders?item=%E2%82', 'item'],
    ['a byte that is no UTF-8', '/v1/orders?item=%ff', 'item'],
    ['a malformed name', '/v1/orders?%zz=1', '%zz'],
    ['a later parameter', '/v1/orders?quantity=1&item=caf%C3', 'item'],
    ['the search service', '/services/v1/search?q=%E2%82&category=orders', 'q'],
  ])('400 invalid_parameter for %s', async (_name, path, field) => {
    const response = await api.get(path).expect(400);
    expect(response.body.errors[0]).toMatchObject({ code: 'invalid_parameter', field });
  });

  it('well-formed escapes are read as what they encode', async () => {
    const percent = await api.get('/v1/orders?item=%25').expect(200);
    expect(percent.body.map((order: { item: string }) => order.item)).toEqual(['%']);
    const accented = await api.get('/v1/orders?item=caf%C3%A9').expect(200);
    expect(accented.body.map((order: { item: string }) => order.item)).toEqual(['café']);
  });

  it.each(['01', '002', '0001'])(
    '400 invalid_identifier for the identifier %s (a second URI of one order)',
    async (id) => {
      const response = await api.get(`/v1/orders/${id}`).expect(400);
      expect(response.body.errors[0]).toMatchObject({
        code: 'invalid_identifier',
        field: 'order_id',
        resource: 'orders',
      });
    },
  );

  it.each(['01', '1e0', '0x1', ' 1', '/v1/orders/01', '/v1/orders/%'])(
    'a reference written %j is refused: 400 invalid_reference naming the field',
    async (order) => {
      const response = await api.post('/v1/trades', { trade_name: 'forms', order }).expect(400);
      expect(response.body.errors[0]).toMatchObject({ code: 'invalid_reference', field: 'order', resource: 'orders' });
    },
  );

  it.each([true, 1.5, {}])('a reference of another type (%j) is told what a reference is', async (order) => {
    const response = await api.post('/v1/trades', { trade_name: 'forms', order }).expect(400);
    expect(response.body.errors[0]).toMatchObject({
      field: 'order',
      message: 'order: must be the URI or id of one of orders',
    });
  });

  it('a reference written as responses write it is taken', async () => {
    const uri = `${api.url}/v1/orders/1`;
    for (const order of ['1', 1, '/v1/orders/1', uri]) {
      const created = await api.post('/v1/trades', { trade_name: 'forms', order }).expect(201);
      const trade = await api.get(new URL(created.body.uri).pathname).expect(200);
      expect(trade.body.order).toBe(uri);
    }
  });
});
