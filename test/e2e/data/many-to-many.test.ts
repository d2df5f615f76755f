import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { expectErrorBody } from '../../support/error-body.ts';

/**
 * An array of references, a many-to-many: visits.products names the products used in a visit
 * (products are named by their SKU, a string, so their URIs carry it). Stored as the SKUs, served as
 * URIs, written as URIs or SKUs.
 */
describe('arrays of references (visits.products)', () => {
  let api: TestApi;
  let pet: number;
  const visit = (products: unknown, at = '2026-12-02T09:30:00Z') => ({ pet, scheduled_at: at, products });
  const uri = (version: string, sku: string) => `${api.url}/${version}/products/${encodeURIComponent(sku)}`;

  beforeAll(async () => {
    api = await startApi();
    const products = { 'blue-mug': 'Blue mug', 'flea-drops': 'Flea drops', 'gauze-roll': 'Gauze roll' };
    for (const [sku, title] of Object.entries(products))
      await api.put(`/v1/products/${sku}`, { title, price: 3 }).expect(201);
    pet = (await api.post('/v1/pets', { pet_name: 'Rex' }).expect(201)).body.identity as number;
  });
  afterAll(async () => api?.close());

  it('takes URIs or ids, stores them in order and serves each as the URI of the version asked', async () => {
    const written = [uri('v1', 'flea-drops'), 'blue-mug', `/v2/products/${encodeURIComponent('gauze-roll')}`];
    const id = (await api.post('/v1/visits', visit(written)).expect(201)).body.identity as number;
    expect((await api.get(`/v1/visits/${id}`).expect(200)).body.products).toEqual([
      uri('v1', 'flea-drops'),
      uri('v1', 'blue-mug'),
      uri('v1', 'gauze-roll'),
    ]);
    expect((await api.get(`/v2/visits/${id}`).expect(200)).body.products).toEqual([
      uri('v2', 'flea-drops'),
      uri('v2', 'blue-mug'),
      uri('v2', 'gauze-roll'),
    ]);
    const listed = (await api.get('/v1/visits').expect(200)).body.find(
      (row: { visit_id: number }) => row.visit_id === id,
    );
    expect(listed.products).toEqual([uri('v1', 'flea-drops'), uri('v1', 'blue-mug'), uri('v1', 'gauze-roll')]);
    expect((await api.patch(`/v1/visits/${id}`, { products: [] }).expect(200)).body.products).toEqual([]);
    expect((await api.patch(`/v1/visits/${id}`, { products: null }).expect(200)).body).not.toHaveProperty('products');
  });

  it('X-Expansion-Fields: true inlines each product, in order, one level deep', async () => {
    const id = (await api.post('/v1/visits', visit(['gauze-roll', 'blue-mug'])).expect(201)).body.identity as number;
    const expanded = await api.get(`/v1/visits/${id}`).set('X-Expansion-Fields', 'true').expect(200);
    expect(expanded.body.products).toEqual([
      expect.objectContaining({ sku: 'gauze-roll', title: 'Gauze roll', price: 3 }),
      expect.objectContaining({ sku: 'blue-mug', title: 'Blue mug', price: 3 }),
    ]);
    const listed = await api.get(`/v1/visits?products.contains=gauze-roll`).set('X-Expansion-Fields', 'true');
    expect(listed.status).toBe(200);
    expect(listed.body.map((row: { products: { sku: string }[] }) => row.products.map((p) => p.sku))).toEqual([
      ['gauze-roll', 'blue-mug'],
    ]);
  });

  it.each([
    [
      'a product that does not exist',
      ['blue-mug', 'flea-drops', 'no-such-sku'],
      422,
      'reference_not_found',
      'products[2]',
    ],
    ['the URI of another collection', ['blue-mug', '/v1/pets/1'], 400, 'invalid_reference', 'products[1]'],
    ['a URI of another host', ['http://evil.example/v1/products/blue-mug'], 422, 'foreign_reference', 'products[0]'],
    [
      'one product named twice, by URI and by id',
      ['blue-mug', '/v1/products/blue-mug'],
      400,
      'invalid_field',
      'products[1]',
    ],
    ['the same item twice', ['blue-mug', 'flea-drops', 'blue-mug'], 400, 'invalid_field', 'products[2]'],
    ['an empty item', ['blue-mug', ''], 400, 'invalid_field', 'products[1]'],
    ['too many items', Array.from({ length: 21 }, (_, index) => `sku-${index}`), 400, 'invalid_field', 'products'],
  ])('refuses %s, naming the item, and stores nothing', async (_what, products, status, code, field) => {
    const before = (await api.get('/v1/visits').expect(200)).headers['x-total-count'];
    const refused = await api.post('/v1/visits', visit(products)).expect(status);
    expectErrorBody(refused, code, field);
    expect((await api.get('/v1/visits').expect(200)).headers['x-total-count']).toBe(before);
  });

  it('?products.contains= lists the visits naming a product, by its id or its URI', async () => {
    await api.put('/v1/products/suture-kit', { title: 'Suture kit' }).expect(201);
    const first = (await api.post('/v1/visits', visit(['suture-kit'], '2026-12-05T09:00:00Z')).expect(201)).body
      .identity;
    const second = (await api.post('/v1/visits', visit(['blue-mug', 'suture-kit'], '2026-12-06T09:00:00Z')).expect(201))
      .body.identity;
    const byId = await api.get('/v1/visits?products.contains=suture-kit').expect(200);
    expect(byId.body.map((row: { visit_id: number }) => row.visit_id)).toEqual([first, second]);
    expect(byId.headers['x-total-count']).toBe('2');
    const byUri = await api.get(`/v1/visits?products.contains=${encodeURIComponent(uri('v1', 'suture-kit'))}`);
    expect(byUri.status).toBe(200);
    expect(byUri.body.map((row: { visit_id: number }) => row.visit_id)).toEqual([first, second]);
    const foreign = await api.get('/v1/visits?products.contains=%2Fv1%2Fpets%2F1').expect(400);
    expectErrorBody(foreign, 'invalid_reference', 'products.contains');
  });

  it('deleting a product some visit still names is 409 naming the field; once no visit names it, 204', async () => {
    await api.put('/v1/products/bandage', { title: 'Bandage' }).expect(201);
    const id = (await api.post('/v1/visits', visit(['blue-mug', 'bandage'])).expect(201)).body.identity as number;
    const refused = await api.delete('/v1/products/bandage').expect(409);
    expectErrorBody(refused, 'resource_in_use', 'products');
    expect(refused.body.errors[0].message).toMatch(/^1 of visits still refer to this product through products$/);
    await api.get('/v1/products/bandage').expect(200);
    await api.patch(`/v1/visits/${id}`, { products: ['blue-mug'] }).expect(200);
    await api.delete('/v1/products/bandage').expect(204);
  });

  it('the served OpenAPI document types the array as URIs (or inlined products) and the write as URIs or ids', async () => {
    const document = (await api.get('/services/v1/openapi').expect(200)).body;
    const { schemas } = document.components;
    expect(schemas.VisitV1.properties.products).toEqual({
      type: 'array',
      maxItems: 20,
      uniqueItems: true,
      items: {
        anyOf: [expect.objectContaining({ type: 'string', format: 'uri' }), { $ref: '#/components/schemas/ProductV1' }],
      },
    });
    expect(schemas.VisitV1Write.properties.products.items.anyOf).toEqual([
      expect.objectContaining({ type: 'string', minLength: 1 }),
      { type: 'integer', minimum: 1 },
    ]);
    expect(Object.keys(document.paths['/v1/products/{sku}'].delete.responses)).toContain('409');
  });
});
