import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createApiClient,
  type ApiClient,
  type V1Components,
  type V2Components,
} from '../../../generated/client/index.ts';
import { until } from '../../support/poll.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';

/**
 * The generated typed client (openapi-typescript types, openapi-fetch calls) as a TypeScript caller
 * uses it, against the running example API. This file is type-checked by `npm test` (tsc --noEmit),
 * so every call below is checked against the documents' types.
 */
describe('the typed client, against the running example API', () => {
  let server: TestApi;
  let client: ApiClient;
  const seen: { method: string; userAgent: string | null; authorization: string | null }[] = [];

  beforeAll(async () => {
    server = await startApi();
    const token = server.headers.Authorization!.replace(/^Bearer /, '');
    // A fetch that notes what each call sends, then sends it.
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      seen.push({
        method: request.method,
        userAgent: request.headers.get('user-agent'),
        authorization: request.headers.get('authorization'),
      });
      return fetch(request);
    };
    client = createApiClient({ baseUrl: server.url, token, userAgent: 'typed-client-test/1.0', fetch: recording });
  });
  afterAll(async () => server.close());

  it('creates, lists, reads, patches with If-Match and deletes an order', async () => {
    const created = await client.v1.POST('/v1/orders', { body: { item: 'apples', quantity: 3 } });
    expect(created.response.status).toBe(201);
    // The creation result is typed per collection: an order's identity is its integer order_id.
    expectTypeOf(created.data!.identity).toEqualTypeOf<number>();
    const id = created.data!.identity;
    expect(created.data!.uri).toBe(`${server.url}/v1/orders/${id}`);

    const list = await client.v1.GET('/v1/orders', { params: { query: { item: 'apples', limit: 10 } } });
    expect(list.data!.map((order) => order.order_id)).toContain(id);
    expect(list.response.headers.get('x-total-count')).toBe('1');

    const read = await client.v1.GET('/v1/orders/{order_id}', { params: { path: { order_id: id } } });
    expectTypeOf(read.data).toEqualTypeOf<V1Components['schemas']['OrderV1'] | undefined>();
    expect(read.data).toEqual({ order_id: id, item: 'apples', quantity: 3, created_at: created.data!.created_at });
    const etag = read.response.headers.get('etag')!;

    const patched = await client.v1.PATCH('/v1/orders/{order_id}', {
      params: { path: { order_id: id }, header: { 'If-Match': etag } },
      body: { quantity: 4 },
    });
    expect(patched.data!.quantity).toBe(4);
    // The same tag again is stale now: 412, typed as the error body.
    const stale = await client.v1.PATCH('/v1/orders/{order_id}', {
      params: { path: { order_id: id }, header: { 'If-Match': etag } },
      body: { quantity: 5 },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error!.errors[0]!.code).toBe('precondition_failed');

    const removed = await client.v1.DELETE('/v1/orders/{order_id}', { params: { path: { order_id: id } } });
    expect(removed.response.status).toBe(204);
    const gone = await client.v1.GET('/v1/orders/{order_id}', { params: { path: { order_id: id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error!.errors[0]).toEqual(expect.objectContaining({ code: 'resource_not_found', field: 'order_id' }));
  });

  it("creates, lists and reads a pet's visits below the pet, the pet taken from the path", async () => {
    const pet = await client.v1.POST('/v1/pets', { body: { pet_name: 'Rex' } });
    const petId = pet.data!.identity;
    // The body below a pet may leave the pet out (VisitV1WriteBelowPet).
    const created = await client.v1.POST('/v1/pets/{pet_id}/visits', {
      params: { path: { pet_id: petId } },
      body: { scheduled_at: '2026-12-02T09:30:00+02:00' },
    });
    expect(created.response.status).toBe(201);
    const list = await client.v1.GET('/v1/pets/{pet_id}/visits', {
      params: { path: { pet_id: petId }, query: { sort: '-scheduled_at', limit: 5 } },
    });
    expectTypeOf(list.data).toEqualTypeOf<V1Components['schemas']['VisitV1'][] | undefined>();
    expect(list.data!.map((visit) => visit.visit_id)).toEqual([created.data!.identity]);
    const read = await client.v1.GET('/v1/pets/{pet_id}/visits/{visit_id}', {
      params: { path: { pet_id: petId, visit_id: created.data!.identity } },
    });
    expect(read.data).toMatchObject({ pet: `${server.url}/v1/pets/${petId}`, scheduled_at: '2026-12-02T07:30:00Z' });
    const missing = await client.v1.GET('/v1/pets/{pet_id}/visits', { params: { path: { pet_id: 424242 } } });
    expect(missing.error!.errors[0]).toEqual(expect.objectContaining({ code: 'resource_not_found', resource: 'pets' }));
  });

  it('replaces and reads the profile aggregate through its user, in v2', async () => {
    const user = await client.v2.POST('/v2/users', { body: { user_name: 'ann' } });
    const userId = user.data!.identity;
    const put = await client.v2.PUT('/v2/users/{user_id}/profiles', {
      params: { path: { user_id: userId } },
      body: { full_name: 'Ann A', title: 'Dr' },
    });
    expect(put.data).toEqual({ full_name: 'Ann A', title: 'Dr' });
    const read = await client.v2.GET('/v2/users/{user_id}/profiles', { params: { path: { user_id: userId } } });
    expect(read.data!.full_name).toBe('Ann A');
  });

  it("searches, runs a job and sets the caller's language", async () => {
    await client.v1.POST('/v1/trades', { body: { trade_name: 'harvest festival' } });
    const found = await client.v1.GET('/services/v1/search', {
      params: { query: { q: 'harvest', category: 'trades' } },
    });
    expect(found.data).toEqual([expect.objectContaining({ trade_name: 'harvest festival' })]);

    const job = await client.v1.PUT('/services/v1/queued/jobs', { body: { type: 'reindex', collections: ['trades'] } });
    expect(job.response.status).toBe(202);
    const finished = await until(
      async () =>
        (await client.v1.GET('/services/v1/queued/jobs/{job_id}', { params: { path: { job_id: job.data!.job_id } } }))
          .data!,
      (state) => 'state' in state && state.state === 'succeeded',
    );
    expect(finished).toEqual(expect.objectContaining({ state: 'succeeded', result: { indexed: { trades: 1 } } }));

    const set = await client.v2.PUT('/settings/v2/gui/lang', { body: { lang: 'fr-fr' } });
    expect(set.data).toEqual({ lang: 'fr-FR' });
    const lang = await client.v2.GET('/settings/v2/gui/lang');
    expect(lang.data!.lang).toBe('fr-FR');
  });

  it('follows the 303 of a finished job to the order it produced, typed as the job or what a job produces', async () => {
    const queued = await client.v1.PUT('/services/v1/queued/jobs', {
      body: { type: 'import-order', item: 'pears', quantity: 2 },
    });
    expect(queued.response.status).toBe(202);
    // fetch follows the 303 a finished job answers: the answer is the order, under the job's 200.
    const followed = await until(
      () => client.v1.GET('/services/v1/queued/jobs/{job_id}', { params: { path: { job_id: queued.data!.job_id } } }),
      (answer) => answer.response.redirected,
    );
    type Schemas = V1Components['schemas'];
    expectTypeOf(followed.data).toEqualTypeOf<
      Schemas['Job'] | Schemas['AuditV1'] | Schemas['BatchV1'] | Schemas['OrderV1'] | undefined
    >();
    expect(followed.response.status).toBe(200);
    expect(followed.response.url).toMatch(/\/v1\/orders\/[0-9]+$/);
    const answer = followed.data!;
    // Not a job: the client tells which it got by its members, as the types make it.
    expect('job_id' in answer).toBe(false);
    expect(answer).toEqual(expect.objectContaining({ item: 'pears', quantity: 2 }));
  });

  it('lists visits sorted and filtered by comparisons, and patches an aggregate and a setting', async () => {
    const pet = await client.v1.POST('/v1/pets', { body: { pet_name: 'Rex' } });
    const petId = pet.data!.identity;
    for (const [scheduled_at, fee] of [
      ['2026-12-02T09:00:00+02:00', 40],
      ['2026-12-01T09:00:00Z', 25],
      ['2026-12-03T09:00:00Z', 5],
    ] as const) {
      await client.v1.POST('/v1/visits', { body: { pet: petId, scheduled_at, fee } });
    }
    const sorted = await client.v1.GET('/v1/visits', {
      params: { query: { sort: '-scheduled_at', 'fee.gte': 10, 'scheduled_at.lt': '2026-12-03T00:00:00Z' } },
    });
    expect(sorted.data!.map((visit) => [visit.scheduled_at, visit.fee])).toEqual([
      ['2026-12-02T07:00:00Z', 40],
      ['2026-12-01T09:00:00Z', 25],
    ]);
    const diet = await client.v2.PATCH('/v2/pets/{pet_id}/diets', {
      params: { path: { pet_id: petId } },
      body: { meals_per_day: 3 },
    });
    expect(diet.data).toEqual({ food: 'standard', meals_per_day: 3 });
    const reminders = await client.v1.PATCH('/settings/v1/reminders', { body: { hours_before: 12 } });
    expect(reminders.data).toEqual({ enabled: true, hours_before: 12 });
  });

  it('writes and reads an enum, a nested object and an array of references, typed as the documents say', async () => {
    const pet = await client.v1.POST('/v1/pets', {
      body: {
        pet_name: 'Kit',
        species: 'cat',
        owner: { name: 'Ann', address: { city: 'Lyon', postcode: '69001' } },
      },
    });
    expect(pet.response.status).toBe(201);
    const petId = pet.data!.identity;
    const readPet = await client.v1.GET('/v1/pets/{pet_id}', { params: { path: { pet_id: petId } } });
    expectTypeOf(readPet.data!.species).toEqualTypeOf<'cat' | 'dog' | 'rabbit' | 'bird' | 'other' | undefined>();
    expectTypeOf(readPet.data!.owner!.address!.city).toEqualTypeOf<string>();
    expect(readPet.data!.species).toBe('cat');
    expect(readPet.data!.owner!.address!.city).toBe('Lyon');

    for (const sku of ['lead', 'collar'])
      await client.v1.PUT('/v1/products/{sku}', { params: { path: { sku } }, body: { title: sku } });
    const visit = await client.v1.POST('/v1/visits', {
      body: {
        pet: petId,
        scheduled_at: '2026-12-04T09:00:00Z',
        products: [`${server.url}/v1/products/lead`, 'collar'],
      },
    });
    expect(visit.response.status).toBe(201);
    const read = await client.v1.GET('/v1/visits/{visit_id}', {
      params: { path: { visit_id: visit.data!.identity } },
    });
    expectTypeOf(read.data!.products).toEqualTypeOf<(string | V1Components['schemas']['ProductV1'])[] | undefined>();
    expect(read.data!.products).toEqual([`${server.url}/v1/products/lead`, `${server.url}/v1/products/collar`]);
    const expanded = await client.v1.GET('/v1/visits/{visit_id}', {
      params: { path: { visit_id: visit.data!.identity }, header: { 'X-Expansion-Fields': 'true' } },
    });
    expect(expanded.data!.products).toEqual([
      expect.objectContaining({ sku: 'lead', title: 'lead' }),
      expect.objectContaining({ sku: 'collar', title: 'collar' }),
    ]);
    const holding = await client.v1.GET('/v1/visits', { params: { query: { 'products.contains': 'collar' } } });
    expect(holding.data!.map((row) => row.visit_id)).toEqual([visit.data!.identity]);
    const missing = await client.v1.POST('/v1/visits', {
      body: { pet: petId, scheduled_at: '2026-12-04T10:00:00Z', products: ['lead', 'no-such-product'] },
    });
    expect(missing.response.status).toBe(422);
    expect(missing.error!.errors[0]).toEqual(
      expect.objectContaining({ code: 'reference_not_found', field: 'products[1]' }),
    );
  });

  it('sends User-Agent and Authorization on every call, set once', () => {
    expect(seen.length).toBeGreaterThan(10);
    for (const call of seen)
      expect(call).toEqual({
        method: call.method,
        userAgent: 'typed-client-test/1.0',
        authorization: expect.stringMatching(/^Bearer [A-Za-z0-9_-]+$/),
      });
  });

  it('the types refuse what the documents refuse', () => {
    // Never called: these lines are here for tsc, which fails `npm test` if a @ts-expect-error is not an error.
    const check = () => {
      // @ts-expect-error quantity is an integer
      void client.v1.POST('/v1/orders', { body: { item: 'x', quantity: 'two' } });
      // @ts-expect-error item is required
      void client.v1.POST('/v1/orders', { body: { quantity: 1 } });
      // @ts-expect-error no such path
      void client.v1.GET('/v1/profiles');
      // @ts-expect-error fee compares with a number
      void client.v1.GET('/v1/visits', { params: { query: { 'fee.gte': 'cheap' } } });
      // @ts-expect-error species is one of the listed values
      void client.v1.POST('/v1/pets', { body: { pet_name: 'x', species: 'fish' } });
      // @ts-expect-error an owner's address needs its city
      void client.v1.POST('/v1/pets', { body: { pet_name: 'x', owner: { name: 'Ann', address: {} } } });
      // @ts-expect-error products are URIs or ids, not booleans
      void client.v1.POST('/v1/visits', { body: { pet: 1, scheduled_at: '2026-12-04T09:00:00Z', products: [true] } });
    };
    expect(typeof check).toBe('function');
    // v1 accounts have state at the top level; v2 keeps it inside profile.
    expectTypeOf<V1Components['schemas']['AccountV1Write']>().toHaveProperty('state');
    expectTypeOf<V2Components['schemas']['AccountV2Write']>().not.toHaveProperty('state');
    expectTypeOf<V2Components['schemas']['AccountV2Write']>().toHaveProperty('profile');
  });
});
