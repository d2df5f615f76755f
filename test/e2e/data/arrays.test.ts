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

  // Zod measures anything with a length against a length bound, even after its type error.
  it('a value of the wrong type is one error, not also a bound its characters or items exceed', async () => {
    const text = await api.patch(`/v1/pets/${pet}`, { allergies: 'pollen, fleas and dust' }).expect(400);
    expect(text.body.errors).toHaveLength(1);
    expect(text.body.errors[0]).toMatchObject({ code: 'invalid_field', field: 'allergies' });
    expect(text.body.errors[0].message).toMatch(/expected array/);
    const list = await api.patch(`/v1/pets/${pet}`, { allergies: [Array.from({ length: 50 }, () => 'x')] }).expect(400);
    expect(list.body.errors).toHaveLength(1);
    expect(list.body.errors[0]).toMatchObject({ code: 'invalid_field', field: 'allergies[0]' });
    expect(list.body.errors[0].message).toMatch(/expected string/);
  });

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

/** An array of enum values filtered by one item (pets.vaccinations: `?vaccinations.contains=rabies`). */
describe('array contains filters', () => {
  let api: TestApi;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    api = await startApi();
    const pets = { Ada: ['rabies', 'distemper'], Bo: ['distemper'], Cy: [], Di: undefined };
    for (const [pet_name, vaccinations] of Object.entries(pets))
      ids[pet_name] = (await api.post('/v1/pets', { pet_name, vaccinations }).expect(201)).body.identity as number;
  });
  afterAll(async () => api?.close());

  const namesOf = (body: { pet_name: string }[]) => body.map((pet) => pet.pet_name).sort();

  it('lists the rows whose array holds the item, counted in X-Total-Count, and combines with other filters', async () => {
    const distemper = await api.get('/v1/pets?vaccinations.contains=distemper').expect(200);
    expect(namesOf(distemper.body)).toEqual(['Ada', 'Bo']);
    expect(distemper.headers['x-total-count']).toBe('2');
    expect(namesOf((await api.get('/v1/pets?vaccinations.contains=rabies').expect(200)).body)).toEqual(['Ada']);
    expect((await api.get('/v1/pets?vaccinations.contains=parvovirus').expect(200)).body).toEqual([]);
    expect(namesOf((await api.get('/v2/pets?vaccinations.contains=distemper&pet_name=Bo').expect(200)).body)).toEqual([
      'Bo',
    ]);
  });

  it('refuses an item the enum does not list, and the array compared whole, naming the parameter', async () => {
    const refused = await api.get('/v1/pets?vaccinations.contains=flu').expect(400);
    expectErrorBody(refused, 'invalid_parameter', 'vaccinations.contains');
    expect(refused.body.errors[0].message).toMatch(/must be one of rabies, distemper/);
    const whole = await api.get('/v1/pets?vaccinations=rabies').expect(400);
    expectErrorBody(whole, 'unknown_parameter', 'vaccinations');
    expect(whole.body.errors[0].message).toMatch(/vaccinations\.contains/);
  });

  it('refuses an item of an array of enums that is not listed, naming it by position', async () => {
    const refused = await api.patch(`/v1/pets/${ids.Bo}`, { vaccinations: ['distemper', 'flu'] }).expect(400);
    expectErrorBody(refused, 'invalid_field', 'vaccinations[1]');
    expect(refused.body.errors[0].message).toMatch(/^vaccinations\[1\]: must be one of rabies/);
  });

  it('the served OpenAPI document lists the contains parameter with the enum', async () => {
    const document = (await api.get('/services/v1/openapi').expect(200)).body;
    const parameters = document.paths['/v1/pets'].get.parameters as { name: string; schema: unknown }[];
    expect(parameters.find((parameter) => parameter.name === 'vaccinations.contains')?.schema).toEqual({
      type: 'string',
      enum: ['rabies', 'distemper', 'parvovirus', 'leptospirosis', 'kennel-cough'],
    });
  });
});
