import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { expectErrorBody } from '../../support/error-body.ts';

/** An array of scalars (pets.allergies: strings of 1 to 40 characters, at most 10, none twice), stored as JSON. */
describe('array fields', () => {
  let api: TestApi;
  let pet: number;

  beforeAll(async () => {
    api = await startApi();
    pet = (await api.post('/v1/pets', { pet_name: 'Tom', allergies: ['pollen', 'fleas'] }).expect(201)).body
      .identity as number;
  });
  afterAll(async () => api?.close());

  it('stores and serves the items in order, in the resource and in lists; PATCH replaces them, null clears them', async () => {
    expect((await api.get(`/v2/pets/${pet}`).expect(200)).body.allergies).toEqual(['pollen', 'fleas']);
    expect(
      (await api.get('/v1/pets').expect(200)).body.find((row: { pet_name: string }) => row.pet_name === 'Tom')
        .allergies,
    ).toEqual(['pollen', 'fleas']);
    expect((await api.patch(`/v1/pets/${pet}`, { allergies: ['dust'] }).expect(200)).body.allergies).toEqual(['dust']);
    expect((await api.patch(`/v1/pets/${pet}`, { allergies: [] }).expect(200)).body.allergies).toEqual([]);
    expect((await api.patch(`/v1/pets/${pet}`, { allergies: null }).expect(200)).body).not.toHaveProperty('allergies');
    await api.patch(`/v1/pets/${pet}`, { allergies: ['pollen', 'fleas'] }).expect(200);
  });

  it.each([
    ['an empty item', ['pollen', ''], 'allergies[1]', /^allergies\[1\]: /],
    ['an item of another type', ['pollen', 'fleas', 3], 'allergies[2]', /^allergies\[2\]: /],
    [
      'an item listed twice',
      ['fleas', 'pollen', 'fleas'],
      'allergies[2]',
      /^allergies\[2\]: repeats the item "fleas"$/,
    ],
    [
      'too many items',
      Array.from({ length: 11 }, (_, index) => `allergen ${index}`),
      'allergies',
      /^allergies: must hold at most 10 items$/,
    ],
    ['not an array', 'pollen', 'allergies', /^allergies: /],
  ])(
    'refuses %s with 400 invalid_field naming the item, changing nothing',
    async (_what, allergies, field, message) => {
      const refused = await api.patch(`/v1/pets/${pet}`, { allergies }).expect(400);
      expectErrorBody(refused, 'invalid_field', field);
      expect(refused.body.errors[0].message).toMatch(message);
      expect((await api.get(`/v1/pets/${pet}`).expect(200)).body.allergies).toEqual(['pollen', 'fleas']);
    },
  );

  it('the served OpenAPI document describes the array, its items and bounds', async () => {
    const document = (await api.get('/services/v1/openapi').expect(200)).body;
    expect(document.components.schemas.PetV1.properties.allergies).toEqual({
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 40 },
      maxItems: 10,
      uniqueItems: true,
    });
  });
});
