import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api as generated } from '../../../generated/api.ts';
import { stripNulls, type FieldModel, type VersionModel } from '../../../runtime/index.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';

/** Arbitrary valid values of a field, by kind (references as ids: what is stored). */
function arbitraryOf(field: FieldModel): fc.Arbitrary<unknown> {
  switch (field.kind) {
    case 'integer':
      return fc.integer({ min: 1, max: 1_000_000 });
    case 'number':
      // JSON has no -0 (JSON.stringify(-0) is "0"): a client cannot send one.
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => (Object.is(value, -0) ? 0 : value));
    case 'boolean':
      return fc.boolean();
    case 'reference':
      return fc.integer({ min: 1, max: 1000 });
    case 'object':
      return representationOf(field.fields ?? []);
    default:
      return fc.string({ minLength: 1, maxLength: 20 });
  }
}

function representationOf(fields: readonly FieldModel[]): fc.Arbitrary<Record<string, unknown>> {
  const members = Object.fromEntries(fields.map((field) => [field.name, field.required ? arbitraryOf(field) : fc.option(arbitraryOf(field), { nil: undefined })]));
  return fc.record(members) as fc.Arbitrary<Record<string, unknown>>;
}

function withoutEmptyObjects(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => !(member !== null && typeof member === 'object' && Object.keys(member).length === 0)));
}

const versioned = Object.values(generated.catalog.collections).flatMap((model) =>
  Object.values(model.versions).map((version): [string, string, VersionModel] => [model.name, version.name, version]),
);

describe('version → stored → version round trips (property)', () => {
  it.each(versioned)('%s %s', (_collection, _version, version) => {
    fc.assert(
      fc.property(representationOf(version.fields), (representation) => {
        const stored = version.write === undefined ? representation : version.write(representation);
        const back = version.read === undefined ? stored : version.read(stored);
        // What a client sees: null and absent fields left out at every depth; an object with no fields carries no data.
        expect(withoutEmptyObjects(stripNulls(back))).toEqual(withoutEmptyObjects(stripNulls(JSON.parse(JSON.stringify(representation)))));
      }),
      { numRuns: 200 },
    );
  });
});

describe('accounts: both versions read and write the same stored account', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  it('a v1 write reads back in v2 inside profile, and a v2 write reads back in v1 at the top level', async () => {
    const created = await api.post('/v1/accounts', { user_name: 'ann', e_mail: 'ann@example.test', state: 'active', title: 'Dr' }).expect(201);
    const id = created.body.identity;
    const v2 = await api.get(`/v2/accounts/${id}`).expect(200);
    expect(v2.body).toEqual({ account_id: id, user_name: 'ann', e_mail: 'ann@example.test', profile: { state: 'active', title: 'Dr' }, created_at: created.body.created_at });
    expect(v2.body).not.toHaveProperty('state');

    await api.patch(`/v2/accounts/${id}`, { profile: { title: 'Prof' } }).expect(200);
    expect((await api.get(`/v1/accounts/${id}`).expect(200)).body).toMatchObject({ state: 'active', title: 'Prof' });

    await api.put(`/v2/accounts/${id}`, { user_name: 'ann', e_mail: 'ann@example.test', profile: { state: 'closed' } }).expect(200);
    const v1 = await api.get(`/v1/accounts/${id}`).expect(200);
    expect(v1.body).toMatchObject({ state: 'closed' });
    expect(v1.body).not.toHaveProperty('title');

    await api.patch(`/v1/accounts/${id}`, { title: 'Ms' }).expect(200);
    expect((await api.get(`/v2/accounts/${id}`).expect(200)).body.profile).toEqual({ state: 'closed', title: 'Ms' });
  });

  it('each version accepts only its own shape', async () => {
    const v2InV1 = await api.post('/v1/accounts', { user_name: 'bob', e_mail: 'bob@example.test', profile: { state: 'x' } }).expect(400);
    expect(v2InV1.body.errors[0]).toMatchObject({ code: 'unknown_field', field: 'profile' });
    const v1InV2 = await api.post('/v2/accounts', { user_name: 'bob', e_mail: 'bob@example.test', state: 'x' }).expect(400);
    expect(v1InV2.body.errors[0]).toMatchObject({ code: 'unknown_field', field: 'state' });
  });
});
