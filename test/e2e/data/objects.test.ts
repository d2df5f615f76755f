import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { expectErrorBody } from '../../support/error-body.ts';

/**
 * A nested object stored as such (pets.owner: a required name, a phone, and an address object whose
 * city is required), one JSON column: text on SQLite, jsonb on PostgreSQL.
 */
describe('nested object fields', () => {
  let api: TestApi;
  let pet: number;
  // Declared order: name, phone, address (street, city, postcode). jsonb would serve shorter keys first.
  const owner = {
    name: 'Ann Lee',
    phone: '+44 20 7946 0000',
    address: { street: '1 High St', city: 'Leeds', postcode: 'LS1 1AA' },
  };

  beforeAll(async () => {
    api = await startApi();
    // Written in another order than declared: served in the declared one.
    const written = {
      address: { postcode: 'LS1 1AA', city: 'Leeds', street: '1 High St' },
      phone: owner.phone,
      name: owner.name,
    };
    pet = (await api.post('/v1/pets', { pet_name: 'Rex', owner: written }).expect(201)).body.identity as number;
  });
  afterAll(async () => api?.close());

  it('serves the object as written, members in the declared order, in each version and in lists', async () => {
    const read = await api.get(`/v1/pets/${pet}`).expect(200);
    expect(JSON.stringify(read.body.owner)).toBe(JSON.stringify(owner));
    expect(JSON.stringify((await api.get(`/v2/pets/${pet}`).expect(200)).body.owner)).toBe(JSON.stringify(owner));
    const listed = (await api.get('/v1/pets?pet_name=Rex').expect(200)).body as { owner: unknown }[];
    expect(listed.map((row) => JSON.stringify(row.owner))).toEqual([JSON.stringify(owner)]);
  });

  it('PATCH replaces the whole object (members left out are gone), null clears it', async () => {
    const moved = { name: 'Ann Lee', address: { city: 'York' } };
    expect((await api.patch(`/v1/pets/${pet}`, { owner: moved }).expect(200)).body.owner).toEqual(moved);
    expect((await api.get(`/v1/pets/${pet}`).expect(200)).body.owner).toEqual(moved);
    expect((await api.patch(`/v1/pets/${pet}`, { owner: null }).expect(200)).body).not.toHaveProperty('owner');
    await api.patch(`/v1/pets/${pet}`, { owner }).expect(200);
  });

  it.each([
    [
      'a required member left out',
      { name: 'Ann', address: { street: '1 High St' } },
      'missing_field',
      'owner.address.city',
    ],
    ['a member of another type', { name: 'Ann', address: { city: 7 } }, 'invalid_field', 'owner.address.city'],
    ['a member that breaks its own check', { name: '' }, 'invalid_field', 'owner.name'],
    [
      'a member not declared',
      { name: 'Ann', address: { city: 'Leeds', floor: 2 } },
      'unknown_field',
      'owner.address.floor',
    ],
    ['a member over its length', { name: 'A'.repeat(101) }, 'value_too_long', 'owner.name'],
    ['not an object', 'Ann', 'invalid_field', 'owner'],
  ])('refuses %s with 400 naming the member by its path, changing nothing', async (_what, value, code, field) => {
    const refused = await api.patch(`/v1/pets/${pet}`, { owner: value }).expect(400);
    expectErrorBody(refused, code, field);
    expect(refused.body.errors[0].message).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}[: ]`));
    expect(JSON.stringify((await api.get(`/v1/pets/${pet}`).expect(200)).body.owner)).toBe(JSON.stringify(owner));
  });

  it('a create with an invalid object stores nothing', async () => {
    const refused = await api.post('/v1/pets', { pet_name: 'Nope', owner: { phone: '1' } }).expect(400);
    expectErrorBody(refused, 'missing_field', 'owner.name');
    expect((await api.get('/v1/pets?pet_name=Nope').expect(200)).body).toEqual([]);
  });

  it('the served OpenAPI document describes the object with its properties and required members', async () => {
    const document = (await api.get('/services/v1/openapi').expect(200)).body;
    const address = {
      type: 'object',
      additionalProperties: false,
      properties: {
        street: { type: 'string', maxLength: 200 },
        city: { type: 'string', minLength: 1, maxLength: 100 },
        postcode: { type: 'string', maxLength: 20 },
      },
      required: ['city'],
    };
    expect(document.components.schemas.PetV1.properties.owner).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 100 },
        phone: { type: 'string', maxLength: 30 },
        address,
      },
      required: ['name'],
    });
    const written = document.components.schemas.PetV1Write.properties.owner;
    expect(written.required).toEqual(['name']);
    expect(written.properties.address.required).toEqual(['city']);
  });
});
