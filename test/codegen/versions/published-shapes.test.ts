import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lintDefinitions } from '../../../codegen/lint/index.ts';
import { loadDefinitions } from '../../../codegen/load/load-definitions.ts';
import { resolveModel } from '../../../codegen/model/index.ts';
import { describeDiff, publishVersions, readPublished, versionDiffs } from '../../../codegen/versions/index.ts';
import { copyProjectWithoutMigrations, editFile } from '../../support/temp-project.ts';

const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));

describe('differences between consecutive versions', () => {
  it('reports accounts v1 → v2 as state and title moved into profile, and no change elsewhere', async () => {
    const diffs = versionDiffs(resolveModel(await loadDefinitions(REPOSITORY)));
    const accounts = diffs.find((diff) => diff.declaration === 'accounts')!;
    expect(describeDiff(accounts)).toEqual(['moved state → profile.state', 'moved title → profile.title']);
    expect(describeDiff(diffs.find((diff) => diff.declaration === 'orders')!)).toEqual(['no change']);
  });
});

describe('lint refuses changes to published versions', () => {
  const lintEdited = async (file: string, edit: (text: string) => string) => {
    const root = copyProjectWithoutMigrations();
    editFile(root, file, edit);
    return (await lintDefinitions(root)).map(({ rule, severity, message, line, column }) => ({
      rule,
      severity,
      message,
      line,
      column,
    }));
  };

  it('a changed field kind is an error at the field', async () => {
    const diagnostics = await lintEdited('definitions/orders.ts', (text) =>
      text.replace(
        'quantity: field.integer({ required: true, min: 1, filterable: true })',
        'quantity: field.string({ required: true, filterable: true })',
      ),
    );
    expect(diagnostics).toEqual(
      ['v1', 'v2'].map((version) => ({
        rule: 'published-shape-changed',
        severity: 'error',
        message: `orders ${version} changed the type or requiredness of quantity; published versions do not change: declare the new shape as a new version (v${Number(version.slice(1)) + 1}) and keep ${version} as it was`,
        line: 9,
        column: 5,
      })),
    );
  });

  it('a removed field is an error; an added required field is an error; an added optional one a warning', async () => {
    const removed = await lintEdited('definitions/trades.ts', (text) =>
      text.replace("    order: field.reference('orders'),\n", ''),
    );
    expect(removed.map((d) => [d.rule, d.message.split(';')[0]])).toEqual([
      ['published-shape-changed', 'trades v1 no longer has field order'],
      ['published-shape-changed', 'trades v2 no longer has field order'],
    ]);
    const added = await lintEdited('definitions/users.ts', (text) =>
      text.replace(
        'filterable: true, searchable: true }),',
        'filterable: true, searchable: true }),\n    nickname: field.string(),\n    age: field.integer({ required: true }),',
      ),
    );
    expect(added.map((d) => [d.rule, d.severity])).toEqual([
      ['published-shape-extended', 'warning'],
      ['published-shape-extended', 'warning'],
      ['published-field-required', 'error'],
      ['published-field-required', 'error'],
    ]);
  });

  it('an added required field with a default is accepted (rows stored before take it): a warning at the field, not an error', async () => {
    const added = await lintEdited('definitions/users.ts', (text) =>
      text.replace(
        'filterable: true, searchable: true }),',
        'filterable: true, searchable: true }),\n    age: field.integer({ required: true, min: 0, default: 18 }),',
      ),
    );
    expect(added).toEqual(
      ['v1', 'v2'].map((version) => ({
        rule: 'published-shape-extended',
        severity: 'warning',
        message: `users ${version} gained the required field age with the default 18 (rows stored before are served with it, writes that leave it out store it); readers of the published version see a new member: consider a new version`,
        line: added[0]!.line,
        column: 5,
      })),
    );
    expect(added[0]!.line).toBeGreaterThan(1);
    const without = await lintEdited('definitions/users.ts', (text) =>
      text.replace(
        'filterable: true, searchable: true }),',
        'filterable: true, searchable: true }),\n    age: field.integer({ required: true, min: 0 }),',
      ),
    );
    expect(without.map((d) => [d.rule, d.severity])).toEqual([
      ['published-field-required', 'error'],
      ['published-field-required', 'error'],
    ]);
  });

  it('an added optional object is a warning, required members and all; a required one with a required member is an error', async () => {
    const addObject = (required: boolean) =>
      lintEdited('definitions/users.ts', (text) =>
        text.replace(
          'filterable: true, searchable: true }),',
          `filterable: true, searchable: true }),\n    address: field.object({ city: field.string({ required: true }), street: field.string() }${required ? ', { required: true }' : ''}),`,
        ),
      );
    expect((await addObject(false)).map((d) => [d.rule, d.severity, d.message.split(';')[0]])).toEqual(
      ['city', 'street'].flatMap((member) =>
        ['v1', 'v2'].map((version) => [
          'published-shape-extended',
          'warning',
          `users ${version} gained the optional field address.${member}`,
        ]),
      ),
    );
    expect((await addObject(true)).map((d) => [d.rule, d.message.split(':')[0]])).toEqual([
      ['published-field-required', 'users v1 gained the required field address.city'],
      ['published-field-required', 'users v2 gained the required field address.city'],
      [
        'published-shape-extended',
        'users v1 gained the optional field address.street; readers of the published version see a new member',
      ],
      [
        'published-shape-extended',
        'users v2 gained the optional field address.street; readers of the published version see a new member',
      ],
    ]);
  });

  it('a new version may change the shape freely', async () => {
    const diagnostics = await lintEdited('definitions/orders.ts', (text) =>
      text
        .replace(
          'versions: { v1: {}, v2: {} }',
          'versions: { v1: {}, v2: {}, v3: { shape: shape({ fields: { item: field.string({ required: true }) }, read: ({ quantity: _q, ...rest }) => rest, write: (value) => value }) } }',
        )
        .replace(
          "import { collection, field } from '@convapi/dsl';",
          "import { collection, field, shape } from '@convapi/dsl';",
        ),
    );
    expect(diagnostics).toEqual([]);
  });

  it("a string's lowered bound is an error at the field", async () => {
    const lowered = await lintEdited('definitions/orders.ts', (text) =>
      text.replace('minLength: 1, filterable: true', 'minLength: 1, maxLength: 100, filterable: true'),
    );
    expect(lowered.map((d) => [d.rule, d.severity, d.line, d.column, d.message.split(';')[0]])).toEqual(
      ['v1', 'v2'].map((version) => [
        'published-shape-changed',
        'error',
        8,
        5,
        `orders ${version} lowered the maxLength of item from 655 to 100, so values its writers could send are refused`,
      ]),
    );
  });

  it("a string's raised bound is a warning, nested strings named by their path", async () => {
    const raised = await lintEdited('definitions/accounts.ts', (text) =>
      text.replace('const title = field.string();', 'const title = field.string({ maxLength: 20_000 });'),
    );
    expect(raised.map((d) => [d.rule, d.severity, d.message.split(';')[0]])).toEqual([
      ['published-shape-extended', 'warning', 'accounts v1 raised the maxLength of title from 10000 to 20000'],
      ['published-shape-extended', 'warning', 'accounts v2 raised the maxLength of profile.title from 10000 to 20000'],
    ]);
  });

  it('a version published before strings had bounds: a warning per string naming the bound it takes now', async () => {
    const unrecorded = await lintEdited('published-versions.json', (text) =>
      text.replaceAll(/,\n\s*"maxLength": \d+/g, ''),
    );
    expect(unrecorded.every((d) => d.rule === 'published-string-bounded' && d.severity === 'warning')).toBe(true);
    expect(unrecorded.map((d) => d.message)).toContain(
      'orders v1 was published before strings had a length bound: item now accepts at most 655 characters, and a longer value is refused with 400 value_too_long; declare a larger maxLength if its clients need one, then record the bound with `npm run generate -- --publish v1`',
    );
  });
});

describe('lint compares the values of a published enum', () => {
  /**
   * A copy with every v1 recorded as declared now (read from the repository: a copy's definitions,
   * once imported, would not be read again after the edit), then pets.ts edited.
   */
  const lintPetsEdited = async (edit: (text: string) => string) => {
    const root = copyProjectWithoutMigrations();
    publishVersions(root, resolveModel(await loadDefinitions(REPOSITORY)), ['v1']);
    editFile(root, 'definitions/pets.ts', edit);
    return (await lintDefinitions(root)).map(({ rule, severity, message, line, column }) => [
      rule,
      severity,
      line,
      column,
      message.split(';')[0],
    ]);
  };

  it('records the values of enums and of arrays of enums when a version is published', async () => {
    const root = copyProjectWithoutMigrations();
    publishVersions(root, resolveModel(await loadDefinitions(REPOSITORY)), ['v1']);
    const pets = readPublished(root)['pets']!['v1']!;
    expect(pets.find((leaf) => leaf.path === 'species')).toMatchObject({
      kind: 'string',
      values: ['cat', 'dog', 'rabbit', 'bird', 'other'],
    });
    expect(pets.find((leaf) => leaf.path === 'vaccinations')).toMatchObject({
      kind: 'array(string)',
      values: ['rabies', 'distemper', 'parvovirus', 'leptospirosis', 'kennel-cough'],
    });
    expect(await lintPetsEdited((text) => text)).toEqual([]);
  });

  it('a removed value is an error at the field, an added one a warning', async () => {
    const removed = await lintPetsEdited((text) => text.replace("'bird', 'other'", "'bird'"));
    expect(removed).toEqual([
      [
        'published-shape-changed',
        'error',
        13,
        5,
        'pets v1 removed "other" from the values of species, so writes its clients could send are refused',
      ],
    ]);
    const added = await lintPetsEdited((text) =>
      text.replace(", 'kennel-cough']", ", 'kennel-cough', 'rabbit-hemorrhagic']"),
    );
    expect(added).toEqual([
      [
        'published-shape-extended',
        'warning',
        15,
        5,
        'pets v1 added "rabbit-hemorrhagic" to the values of vaccinations',
      ],
    ]);
  });

  it('a published string limited to listed values is an error; an enum opened to any string a warning', async () => {
    const opened = await lintPetsEdited((text) =>
      text.replace(
        "field.enum(['cat', 'dog', 'rabbit', 'bird', 'other'], { filterable: true })",
        'field.string({ filterable: true, maxLength: 100 })',
      ),
    );
    expect(opened.map(([rule, severity, , , message]) => [rule, severity, message])).toEqual([
      [
        'published-shape-extended',
        'warning',
        'pets v1 no longer limits species to "cat", "dog", "rabbit", "bird", "other"',
      ],
    ]);
    const limited = await lintPetsEdited((text) =>
      text.replace(
        'pet_name: field.string({ required: true, minLength: 1,',
        "pet_name: field.enum(['Rex', 'Tom'], { required: true,",
      ),
    );
    expect(limited.map(([rule, severity, , , message]) => [rule, severity, message])).toContainEqual([
      'published-shape-changed',
      'error',
      'pets v1 limited pet_name to the values "Rex", "Tom", so other values its writers could send are refused',
    ]);
  });
});
