import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api as generated } from '../../../generated/api.ts';
import { collectionHandlers, type CollectionModel, type Route } from '../../../runtime/index.ts';
import { ordersModel } from '../../../generated/models/orders.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { headerOf } from '../../support/header-of.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { raceUniqueCreate } from '../../support/racing-writes.ts';

describe('errors: one body, a precise code and field, never internals', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { BODY_LIMIT_BYTES: '2048' } });
  });
  afterAll(async () => api.close());

  it('400 malformed JSON', async () => {
    const response = await api
      .raw()
      .post('/v1/orders')
      .set(api.headers)
      .set('Content-Type', 'application/json')
      .send('{"item": "x",')
      .expect(400);
    expectErrorBody(response, 'malformed_json');
  });

  it.each([
    ['a missing required field', { quantity: 1 }, 'missing_field', 'item'],
    ['a wrongly typed field', { item: 'x', quantity: 'two' }, 'invalid_field', 'quantity'],
    ['a field out of bounds', { item: 'x', quantity: 0 }, 'invalid_field', 'quantity'],
    ['an unknown field', { item: 'x', quantity: 1, colour: 'red' }, 'unknown_field', 'colour'],
    ['a server-set field', { item: 'x', quantity: 1, order_id: 7 }, 'read_only_field', 'order_id'],
    ['an array instead of an object', [{ item: 'x' }], 'invalid_body', undefined],
  ])('400 for %s, naming the field', async (_name, body, code, field) => {
    expectErrorBody(await api.post('/v1/orders', body).expect(400), code, field);
  });

  // The write schemas allow null only in a partial update (PATCH): a create or a replace leaves the field out.
  it.each([
    ['POST', '/v1/trades', { trade_name: 'x', order: null }, 'null_not_allowed', 'order'],
    [
      'POST',
      '/v2/accounts',
      { user_name: 'x', e_mail: 'x@example.test', profile: null },
      'null_not_allowed',
      'profile',
    ],
    ['POST', '/v1/orders', { item: null, quantity: 1 }, 'missing_field', 'item'],
  ])('400 for null in %s %s, naming the field', async (_method, path, body, code, field) => {
    expectErrorBody(await api.post(path, body).expect(400), code, field);
  });

  it('400 for null in a PUT, 200 for null in a PATCH (which clears the field)', async () => {
    const order = await api.post('/v1/orders', { item: 'x', quantity: 1 }).expect(201);
    const trade = await api.post('/v1/trades', { trade_name: 'x', order: order.body.identity }).expect(201);
    expectErrorBody(
      await api.put(`/v1/trades/${trade.body.identity}`, { trade_name: 'y', order: null }).expect(400),
      'null_not_allowed',
      'order',
    );
    const patched = await api.patch(`/v1/trades/${trade.body.identity}`, { order: null }).expect(200);
    expect(patched.body).toEqual({ trade_id: trade.body.identity, trade_name: 'x', created_at: trade.body.created_at });
  });

  it('400 for a wrongly formatted e-mail, naming e_mail', async () => {
    expectErrorBody(
      await api.post('/v1/accounts', { user_name: 'x', e_mail: 'not-an-address' }).expect(400),
      'invalid_field',
      'e_mail',
    );
  });

  it('400 lists every problem at once', async () => {
    const response = await api.post('/v1/orders', { quantity: 'x', colour: 'red' }).expect(400);
    expect(response.body.errors.map((entry: { field: string }) => entry.field).sort()).toEqual([
      'colour',
      'item',
      'quantity',
    ]);
  });

  it.each([
    ['an unknown path', '/v1/nothing'],
    ['an uppercase path', '/V1/orders'],
    ['an uppercase collection', '/v1/Orders'],
    ['an underscore path', '/v1/order_items'],
    ['a third nesting level', '/v1/users/1/profiles/1'],
    ['a deeper path', '/v1/users/1/profiles/x/y'],
    ['an unknown version', '/v9/orders'],
    ['an unknown id', '/v1/orders/424242'],
    ['a trailing slash', '/v1/orders/'],
  ])('404 for %s', async (_name, path) => {
    const response = await api.get(path).expect(404);
    expectErrorBody(response, path === '/v1/orders/424242' ? 'resource_not_found' : 'path_not_found');
  });

  // The documents declare integer identifiers as integers from 1: any other form is a malformed request.
  it.each([
    ['GET', '/v1/orders/abc', 'order_id'],
    ['GET', '/v1/orders/0', 'order_id'],
    ['GET', '/v1/orders/-1', 'order_id'],
    ['GET', '/v1/orders/1.5', 'order_id'],
    ['GET', '/v1/orders/99999999999999999', 'order_id'],
    ['PATCH', '/v2/trades/abc', 'trade_id'],
    ['DELETE', '/v1/users/x1', 'user_id'],
    ['GET', '/v1/users/abc/profiles', 'user_id'],
    ['GET', '/services/v1/queued/jobs/abc', 'job_id'],
    ['DELETE', '/services/v1/queued/jobs/0', 'job_id'],
  ])('400 invalid_identifier for %s %s', async (method, path, field) => {
    const test =
      method === 'GET' ? api.get(path) : method === 'DELETE' ? api.delete(path) : api.patch(path, { trade_name: 'x' });
    const response = await test.expect(400);
    expectErrorBody(response, 'invalid_identifier');
    expect(response.body.errors[0].field).toBe(field);
  });

  it('405 with Allow for a method the path does not serve', async () => {
    const response = await api.patch('/v1/orders', { item: 'x' }).expect(405);
    expectErrorBody(response, 'method_not_allowed');
    expect(headerOf(response, 'allow')).toBe('GET, POST, HEAD, OPTIONS');
  });

  it('406 when Accept excludes JSON', async () => {
    expectErrorBody(await api.get('/v1/orders').set('Accept', 'text/html').expect(406), 'not_acceptable');
  });

  it('Accept naming the type the server sends, charset included, is served; another charset is 406', async () => {
    // What a client reading the documents sends: their media type, application/json;charset=UTF-8.
    const exact = await api.get('/v1/orders').set('Accept', 'application/json;charset=UTF-8').expect(200);
    expect(exact.headers['content-type']).toBe('application/json;charset=UTF-8');
    await api.get('/v1/orders').set('Accept', 'application/json; charset=utf-8').expect(200);
    expectErrorBody(
      await api.get('/v1/orders').set('Accept', 'application/json;charset=ISO-8859-1').expect(406),
      'not_acceptable',
    );
  });

  it('409 for a duplicate unique value', async () => {
    await api.post('/v1/users', { user_name: 'unique-ann' }).expect(201);
    expectErrorBody(
      await api.post('/v2/users', { user_name: 'unique-ann' }).expect(409),
      'duplicate_value',
      'user_name',
    );
  });

  it('409 for every loser of a race to create the same unique value: exactly one is created', async () => {
    await raceUniqueCreate(api, '/v1/users', { user_name: 'racing-bob' }, 'user_name', 8);
  });

  it('a reference and a delete of its target racing: either the delete is refused (409) or the reference is (422), never both written', async () => {
    for (let round = 0; round < 5; round += 1) {
      const order = await api.post('/v1/orders', { item: `raced ${round}`, quantity: 1 }).expect(201);
      const [trade, removal] = await Promise.all([
        api.post('/v1/trades', { trade_name: `racer ${round}`, order: order.body.uri }),
        api.delete(`/v1/orders/${order.body.identity}`),
      ]);
      expect([`${trade.status} ${removal.status}`]).toContainEqual(expect.stringMatching(/^(201 409|422 204)$/));
    }
  });

  it('413 for a body over the limit', async () => {
    expectErrorBody(
      await api.post('/v1/orders', { item: 'x'.repeat(5000), quantity: 1 }).expect(413),
      'payload_too_large',
    );
  });

  it('415 for a body that is not JSON', async () => {
    const response = await api
      .raw()
      .post('/v1/orders')
      .set(api.headers)
      .set('Content-Type', 'text/plain')
      .send('item=x')
      .expect(415);
    expectErrorBody(response, 'unsupported_media_type');
  });

  it('422 for a reference to a missing resource; nothing is written', async () => {
    const before = Number(headerOf(await api.get('/v1/trades').expect(200), 'x-total-count'));
    expectErrorBody(
      await api.post('/v1/trades', { trade_name: 'ghost', order: 999999 }).expect(422),
      'reference_not_found',
      'order',
    );
    expect(Number(headerOf(await api.get('/v1/trades').expect(200), 'x-total-count'))).toBe(before);
  });

  it.each([
    ['X-Pretty-Print', 'maybe'],
    ['X-Expansion-Fields', 'yes'],
  ])('400 invalid_header for %s: %s, before anything is written', async (header, value) => {
    const before = Number(headerOf(await api.get('/v1/orders').expect(200), 'x-total-count'));
    expectErrorBody(
      await api.post('/v1/orders', { item: 'not written', quantity: 1 }).set(header, value).expect(400),
      'invalid_header',
      header,
    );
    expect(Number(headerOf(await api.get('/v1/orders').expect(200), 'x-total-count'))).toBe(before);

    const created = await api.post('/v1/orders', { item: 'kept', quantity: 1 }).expect(201);
    const path = `/v1/orders/${created.body.identity}`;
    for (const send of [
      () => api.patch(path, { item: 'changed' }),
      () => api.put(path, { item: 'changed', quantity: 2 }),
      () => api.delete(path),
    ]) {
      expectErrorBody(await send().set(header, value).expect(400), 'invalid_header', header);
    }
    const unchanged = await api.get(path).expect(200);
    expect(unchanged.body).toMatchObject({ item: 'kept', quantity: 1 });
  });
});

describe('500 and 501 through the real handler path', () => {
  let api: TestApi;
  beforeAll(async () => {
    const secret = 'secret internals: /etc/passwd at line 42';
    const broken: Route = {
      method: 'GET',
      path: '/v1/broken',
      family: 'resource',
      handle: () => {
        throw new Error(secret);
      },
    };
    // orders with delete declared but not implemented, served by the runtime's own collection handlers.
    const planned: CollectionModel = {
      ...ordersModel,
      operations: { ...ordersModel.operations, delete: 'not-implemented' },
    };
    api = await startApi({
      api: {
        ...generated,
        routes: (context) => {
          const handlers = collectionHandlers(context, planned, 'v1', context.handlerOptions);
          return [
            broken,
            { method: 'DELETE', path: '/v1/orders/:order_id', family: 'resource', handle: handlers.delete },
            { method: 'POST', path: '/v1/orders', family: 'resource', handle: handlers.create },
          ];
        },
      },
    });
  });
  afterAll(async () => api.close());

  it('500 says nothing of the internals', async () => {
    const originalError = console.error;
    console.error = () => undefined; // the server logs the cause; the client must not see it
    try {
      const response = await api.get('/v1/broken').expect(500);
      expectErrorBody(response, 'internal_error');
      expect(response.text).not.toContain('secret');
      expect(response.text).not.toContain('at ');
    } finally {
      console.error = originalError;
    }
  });

  it('501 for a declared operation with no implementation', async () => {
    const created = await api.post('/v1/orders', { item: 'x', quantity: 1 }).expect(201);
    const response = await api.delete(`/v1/orders/${created.body.identity}`).expect(501);
    expectErrorBody(response, 'not_implemented');
  });
});
