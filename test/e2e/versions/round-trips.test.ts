import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api as generated } from '../../../generated/api.ts';
import { openBackend, stripNulls, type Backend, type FieldModel, type VersionModel } from '../../../runtime/index.ts';
import { isoNow, type ColumnKind, type Row, type TableSpec } from '../../../runtime/storage/index.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { newTestDatabase } from '../../support/test-database.ts';

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
  const members = Object.fromEntries(
    fields.map((field) => [
      field.name,
      field.required ? arbitraryOf(field) : fc.option(arbitraryOf(field), { nil: undefined }),
    ]),
  );
  return fc.record(members) as fc.Arbitrary<Record<string, unknown>>;
}

function withoutEmptyObjects(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value).filter(
      ([, member]) => !(member !== null && typeof member === 'object' && Object.keys(member).length === 0),
    ),
  );
}

/** The versions whose shape differs from what is stored: each has its own read and write. */
const mapped = Object.values(generated.catalog.collections).flatMap((model) =>
  Object.values(model.versions)
    .filter((version) => version.read !== undefined || version.write !== undefined)
    .map((version): [string, string, VersionModel] => [model.name, version.name, version]),
);

// A version without read and write is the stored shape itself: nothing to map, so its round trip is
// the database's, checked below for every table. Only mapped versions have a mapping to check here.
describe('version → stored → version round trips (property)', () => {
  it('the example API has mapped versions to check', () => {
    expect(mapped.map(([collection, version]) => `${collection} ${version}`)).toContain('accounts v2');
  });

  it.each(mapped)('%s %s', (_collection, _version, version) => {
    expect(version.read).toBeDefined();
    expect(version.write).toBeDefined();
    fc.assert(
      fc.property(representationOf(version.fields), (representation) => {
        const back = version.read!(version.write!(representation));
        // What a client sees: null and absent fields left out at every depth; an object with no fields carries no data.
        expect(withoutEmptyObjects(stripNulls(back))).toEqual(
          withoutEmptyObjects(stripNulls(JSON.parse(JSON.stringify(representation)))),
        );
      }),
      { numRuns: 200 },
    );
  });
});

/** Arbitrary values a column of this kind stores (what the handlers hand the store). */
function storedValueOf(kind: ColumnKind): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'integer':
    case 'reference':
      return fc.integer({ min: -2_147_483_648, max: 2_147_483_647 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => (Object.is(value, -0) ? 0 : value));
    case 'boolean':
      return fc.boolean();
    case 'time':
      return fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true })
        .map((at) => isoNow(at));
    case 'string':
      return fc.string({ maxLength: 40, unit: 'grapheme' });
    case 'json':
      return fc.array(fc.string({ maxLength: 10, unit: 'grapheme' }), { maxLength: 5 });
  }
}

/** Arbitrary column values of a table; an optional column may be absent (stored as NULL). */
function storedValuesOf(table: TableSpec): fc.Arbitrary<Row> {
  return fc.record(
    Object.fromEntries(
      table.columns.map((column) => [column.name, fc.option(storedValueOf(column.kind), { nil: undefined })]),
    ),
  ) as fc.Arbitrary<Row>;
}

/** The values with each unique column made distinct from every earlier run's (the `n`th), absent members left out. */
function distinct(table: TableSpec, values: Row, n: number): Row {
  const row: Row = {};
  for (const column of table.columns) {
    const value = values[column.name];
    if (value === undefined) continue;
    row[column.name] = !column.unique
      ? value
      : column.kind === 'string'
        ? `${String(value)}-${n}`
        : column.kind === 'integer' || column.kind === 'reference'
          ? n
          : value;
  }
  return row;
}

/**
 * The row with its references as text. PostgreSQL keeps a reference in a text column (the target's id,
 * integer or string, compares equal to it as a parameter) and reads it back as text; a client sees
 * either as the same URI.
 */
function referencesAsText(table: TableSpec, row: Row): Row {
  const references = table.columns.filter((column) => column.kind === 'reference' && row[column.name] !== undefined);
  return { ...row, ...Object.fromEntries(references.map((column) => [column.name, String(row[column.name])])) };
}

const tables = [
  ...Object.values(generated.catalog.collections).map((model) => model.table),
  ...generated.catalog.aggregates.map((model) => model.table),
];

// What a version without read and write round trips through: the row as the store writes it to the
// database and reads it back, on the suite's engine, every column kind of every table.
describe('stored → database → stored round trips (property)', () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend(await newTestDatabase(), { tables });
  });
  afterAll(async () => backend.close());

  it.each(tables.map((table): [string, TableSpec] => [table.table, table]))('%s', async (_table, table) => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(storedValuesOf(table), async (values) => {
        runs += 1;
        const stored = distinct(table, values, runs);
        const key = table.key.generated ? undefined : table.key.type === 'integer' ? runs : `key-${runs}`;
        const inserted = await backend.store.transaction((tx) =>
          tx.insert(table, key === undefined ? stored : { ...stored, [table.key.name]: key }),
        );
        const found = await backend.store.find(table, inserted[table.key.name]);
        expect(found === undefined ? found : referencesAsText(table, found)).toEqual({
          ...referencesAsText(table, stored),
          [table.key.name]: inserted[table.key.name],
          created_at: inserted.created_at,
          updated_at: inserted.updated_at,
        });
      }),
      { numRuns: 50 },
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
    const created = await api
      .post('/v1/accounts', { user_name: 'ann', e_mail: 'ann@example.test', state: 'active', title: 'Dr' })
      .expect(201);
    const id = created.body.identity;
    const v2 = await api.get(`/v2/accounts/${id}`).expect(200);
    expect(v2.body).toEqual({
      account_id: id,
      user_name: 'ann',
      e_mail: 'ann@example.test',
      profile: { state: 'active', title: 'Dr' },
      created_at: created.body.created_at,
    });
    expect(v2.body).not.toHaveProperty('state');

    await api.patch(`/v2/accounts/${id}`, { profile: { title: 'Prof' } }).expect(200);
    expect((await api.get(`/v1/accounts/${id}`).expect(200)).body).toMatchObject({ state: 'active', title: 'Prof' });

    await api
      .put(`/v2/accounts/${id}`, { user_name: 'ann', e_mail: 'ann@example.test', profile: { state: 'closed' } })
      .expect(200);
    const v1 = await api.get(`/v1/accounts/${id}`).expect(200);
    expect(v1.body).toMatchObject({ state: 'closed' });
    expect(v1.body).not.toHaveProperty('title');

    await api.patch(`/v1/accounts/${id}`, { title: 'Ms' }).expect(200);
    expect((await api.get(`/v2/accounts/${id}`).expect(200)).body.profile).toEqual({ state: 'closed', title: 'Ms' });
  });

  it('each version accepts only its own shape', async () => {
    const v2InV1 = await api
      .post('/v1/accounts', { user_name: 'bob', e_mail: 'bob@example.test', profile: { state: 'x' } })
      .expect(400);
    expect(v2InV1.body.errors[0]).toMatchObject({ code: 'unknown_field', field: 'profile' });
    const v1InV2 = await api
      .post('/v2/accounts', { user_name: 'bob', e_mail: 'bob@example.test', state: 'x' })
      .expect(400);
    expect(v1InV2.body.errors[0]).toMatchObject({ code: 'unknown_field', field: 'state' });
  });
});
