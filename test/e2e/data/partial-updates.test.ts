import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { issueToken } from '../../support/token-cli.ts';

/** Aggregates and settings always exist: GET answers their declared defaults before the first write, and PATCH changes part of them. */
describe('aggregates and settings: declared defaults before the first write, and PATCH', () => {
  let api: TestApi;
  let pet: number;

  beforeAll(async () => {
    api = await startApi();
    pet = (await api.post('/v1/pets', { pet_name: 'Rex' }).expect(201)).body.identity as number;
  });
  afterAll(async () => api?.close());

  it('GET of an aggregate never written answers its declared defaults; one without defaults answers {}', async () => {
    expect((await api.get(`/v1/pets/${pet}/diets`).expect(200)).body).toEqual({ food: 'standard', meals_per_day: 2 });
    const user = (await api.post('/v1/users', { user_name: 'no-profile-yet' }).expect(201)).body.identity as number;
    expect((await api.get(`/v2/users/${user}/profiles`).expect(200)).body).toEqual({});
  });

  it('PATCH of an aggregate changes the fields it sends and keeps the others; null clears an optional one', async () => {
    const path = `/v2/pets/${pet}/diets`;
    expect((await api.patch(path, { notes: 'no grain' }).expect(200)).body).toEqual({
      food: 'standard',
      meals_per_day: 2,
      notes: 'no grain',
    });
    expect((await api.patch(path, { meals_per_day: 3 }).expect(200)).body).toEqual({
      food: 'standard',
      meals_per_day: 3,
      notes: 'no grain',
    });
    expect((await api.patch(path, { notes: null }).expect(200)).body).toEqual({ food: 'standard', meals_per_day: 3 });
    expect((await api.get(`/v1/pets/${pet}/diets`).expect(200)).body).toEqual({ food: 'standard', meals_per_day: 3 });
    const refused = await api.patch(path, { meals_per_day: 9 }).expect(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'invalid_field', field: 'meals_per_day' });
    expect((await api.patch(path, { food: null }).expect(400)).body.errors[0]).toMatchObject({
      code: 'missing_field',
      field: 'food',
    });
  });

  it('PATCH with Prefer: return=minimal answers 204 and still writes', async () => {
    const path = `/v1/pets/${pet}/diets`;
    const minimal = await api.patch(path, { food: 'senior' }).set('Prefer', 'return=minimal').expect(204);
    expect(minimal.headers['preference-applied']).toBe('return=minimal');
    expect((await api.get(path).expect(200)).body.food).toBe('senior');
  });

  it('the first PATCH of an aggregate is read as a whole value: a required field without a default must be sent', async () => {
    const user = (await api.post('/v1/users', { user_name: 'first-patch' }).expect(201)).body.identity as number;
    const path = `/v1/users/${user}/profiles`;
    expect((await api.patch(path, { title: 'Dr' }).expect(400)).body.errors[0]).toMatchObject({
      code: 'missing_field',
      field: 'full_name',
    });
    expect((await api.patch(path, { full_name: 'Ann A', title: 'Dr' }).expect(200)).body).toEqual({
      full_name: 'Ann A',
      title: 'Dr',
    });
    expect((await api.patch(path, { state: 'active' }).expect(200)).body).toEqual({
      full_name: 'Ann A',
      title: 'Dr',
      state: 'active',
    });
  });

  it('PATCH of an aggregate of a missing parent is 404', async () => {
    expect((await api.patch('/v1/pets/424242/diets', { notes: 'x' }).expect(404)).body.errors[0]).toMatchObject({
      code: 'resource_not_found',
      resource: 'pets',
    });
  });

  it("a setting answers its declared defaults until the caller writes it, per caller; PATCH changes part of the caller's own value", async () => {
    expect((await api.get('/settings/v1/reminders').expect(200)).body).toEqual({ enabled: true, hours_before: 24 });
    expect((await api.patch('/settings/v1/reminders', { hours_before: 48 }).expect(200)).body).toEqual({
      enabled: true,
      hours_before: 48,
    });
    expect((await api.patch('/settings/v2/reminders', { enabled: false }).expect(200)).body).toEqual({
      enabled: false,
      hours_before: 48,
    });
    expect((await api.get('/settings/v1/reminders').expect(200)).body).toEqual({ enabled: false, hours_before: 48 });
    expect((await api.patch('/settings/v1/reminders', { hours_before: 0 }).expect(400)).body.errors[0]).toMatchObject({
      code: 'invalid_field',
      field: 'hours_before',
    });
    expect(
      (await api.patch('/settings/v1/reminders', { enabled: true }).set('Prefer', 'return=minimal').expect(204)).text,
    ).toBe('');
    expect((await api.get('/settings/v1/reminders').expect(200)).body).toEqual({ enabled: true, hours_before: 48 });
    // Another client has its own value: still the defaults.
    const other = issueToken(api.databaseUrl, 'another-client');
    expect((await api.get('/settings/v1/reminders').set('Authorization', `Bearer ${other}`).expect(200)).body).toEqual({
      enabled: true,
      hours_before: 24,
    });
  });

  it('PATCH of a setting keeps the fields it does not send (gui/lang: the one field, canonical form applied)', async () => {
    expect((await api.patch('/settings/v1/gui/lang', { lang: 'fr-fr' }).expect(200)).body).toEqual({ lang: 'fr-FR' });
    expect((await api.patch('/settings/v1/gui/lang', {}).expect(200)).body).toEqual({ lang: 'fr-FR' });
    expect((await api.get('/settings/v2/gui/lang').expect(200)).body).toEqual({ lang: 'fr-FR' });
  });
});
