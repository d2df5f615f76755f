import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { expectErrorBody } from '../../support/error-body.ts';

const SPECIES = ['cat', 'dog', 'rabbit', 'bird', 'other'];

/** An enum field (pets.species): written and read as one of its values, refused otherwise, filtered by one. */
describe('enum fields', () => {
  let api: TestApi;
  let cat: number;

  beforeAll(async () => {
    api = await startApi();
    cat = (await api.post('/v1/pets', { pet_name: 'Tom', species: 'cat' }).expect(201)).body.identity as number;
    await api.post('/v1/pets', { pet_name: 'Rex', species: 'dog' }).expect(201);
    await api.post('/v1/pets', { pet_name: 'Nameless' }).expect(201);
  });
  afterAll(async () => api?.close());

  it('stores and serves one of the values', async () => {
    expect((await api.get(`/v2/pets/${cat}`).expect(200)).body).toMatchObject({ pet_name: 'Tom', species: 'cat' });
    expect((await api.patch(`/v1/pets/${cat}`, { species: 'rabbit' }).expect(200)).body.species).toBe('rabbit');
    await api.patch(`/v1/pets/${cat}`, { species: 'cat' }).expect(200);
  });

  it('refuses another value with 400 naming the field and the values it takes, on create and on update, changing nothing', async () => {
    const created = await api.post('/v1/pets', { pet_name: 'Smaug', species: 'dragon' }).expect(400);
    expectErrorBody(created, 'invalid_field', 'species');
    expect(created.body.errors[0].message).toBe(`species: must be one of ${SPECIES.join(', ')}`);
    expectErrorBody(await api.patch(`/v1/pets/${cat}`, { species: 'Cat' }).expect(400), 'invalid_field', 'species');
    expect((await api.get(`/v1/pets/${cat}`).expect(200)).body.species).toBe('cat');
    expect((await api.get('/v1/pets?pet_name=Smaug').expect(200)).body).toEqual([]);
  });

  it('filters by one value; another value is 400 invalid_parameter naming the values', async () => {
    expect(
      (await api.get('/v1/pets?species=cat').expect(200)).body.map((pet: { pet_name: string }) => pet.pet_name),
    ).toEqual(['Tom']);
    expect((await api.get('/v1/pets?species=bird').expect(200)).body).toEqual([]);
    const refused = await api.get('/v1/pets?species=dragon').expect(400);
    expectErrorBody(refused, 'invalid_parameter', 'species');
    expect(refused.body.errors[0].message).toBe(`species must be one of ${SPECIES.join(', ')}`);
  });

  it('the served OpenAPI document lists the values, in the representation and in the filter', async () => {
    const document = (await api.get('/services/v1/openapi').expect(200)).body;
    expect(document.components.schemas.PetV1.properties.species).toEqual({ type: 'string', enum: SPECIES });
    const filter = document.paths['/v1/pets'].get.parameters.find(
      (parameter: { name?: string }) => parameter.name === 'species',
    );
    expect(filter.schema).toEqual({ type: 'string', enum: SPECIES });
  });
});
