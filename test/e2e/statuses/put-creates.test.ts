import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { openApiDocumentOf, useCheckedApi } from '../../support/checked-client.ts';

describe('201 on PUT where clients assign identifiers (definitions/products.ts)', () => {
  const { api, send } = useCheckedApi();

  it.each([['v1'], ['v2']])(
    '%s: PUT to a new identifier creates (201, creation result, Location); again replaces (200)',
    async (version) => {
      const path = `/${version}/products/blue-mug-${version}`;
      const created = await send('put', path, { title: 'Blue mug', price: 7.5 });
      expect(created.status).toBe(201);
      const uri = `${api().url}${path}`;
      expect(created.headers.location).toBe(uri);
      expect(created.body).toEqual({
        uri,
        identity: `blue-mug-${version}`,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        links: [
          { rel: 'self', href: uri },
          { rel: 'collection', href: `${api().url}/${version}/products` },
        ],
      });
      expect((await send('get', path)).body).toEqual({
        sku: `blue-mug-${version}`,
        title: 'Blue mug',
        price: 7.5,
        created_at: created.body.created_at,
      });

      const replaced = await send('put', path, { title: `Large blue mug ${version}` });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toEqual({
        sku: `blue-mug-${version}`,
        title: `Large blue mug ${version}`,
        created_at: created.body.created_at,
      });
      expect((await send('get', `/${version}/products?title=Large blue mug ${version}`)).body).toHaveLength(1);
    },
  );

  it('an invalid body creates nothing', async () => {
    const response = await send('put', '/v1/products/red-mug', { price: -1 });
    expect(response.status).toBe(400);
    expect((await send('get', '/v1/products/red-mug')).status).toBe(404);
  });

  it('an identifier a client may not choose is refused: 400 invalid_identifier naming sku', async () => {
    const response = await send('put', '/v1/products/Blue_Mug', { title: 'x' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ code: 'invalid_identifier', field: 'sku', resource: 'products' });
  });

  it.each([
    ['blue-mug', 201],
    ['a', 201],
    ['x'.repeat(64), 201],
    ['x'.repeat(65), 400],
    ['Blue_Mug', 400],
    ['-mug', 400],
    ['mug-', 400],
    ['mug.blue', 400],
  ])('the documents pattern for sku and the server agree on %s', async (sku, status) => {
    const document = JSON.parse(readFileSync(openApiDocumentOf('v1'), 'utf8')) as {
      components: { parameters: { Sku: { schema: { pattern: string; maxLength: number } } } };
    };
    const { pattern, maxLength } = document.components.parameters.Sku.schema;
    expect(new RegExp(pattern, 'u').test(sku) && sku.length <= maxLength).toBe(status === 201);
    const response = await send('put', `/v1/products/${sku}`, { title: 'x' });
    expect(response.status).toBe(status);
  });

  it('If-Match on a resource that does not exist: 412, nothing created', async () => {
    const response = await send('put', '/v1/products/green-mug', { title: 'Green mug' }, { 'If-Match': '"abc"' });
    expect(response.status).toBe(412);
    expect((await send('get', '/v1/products/green-mug')).status).toBe(404);
  });

  it('a body naming another identifier than the path is refused', async () => {
    const response = await send('put', '/v1/products/grey-mug', { sku: 'other-mug', title: 'Grey mug' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ field: 'sku' });
  });

  it('POST is not served there (405), and PATCH of an unknown identifier still answers 404', async () => {
    const post = await api().post('/v1/products', { title: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).not.toContain('POST');
    expect((await send('patch', '/v1/products/no-such-mug', { title: 'x' })).status).toBe(404);
  });

  it('orders, whose identifiers the server assigns, still answer 404 to PUT of an unknown id', async () => {
    expect((await send('put', '/v1/orders/424242', { item: 'x', quantity: 1 })).status).toBe(404);
  });
});
