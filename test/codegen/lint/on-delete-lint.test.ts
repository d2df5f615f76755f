import { describe, expect, it } from 'vitest';
import { lintDefinitions } from '../../../codegen/lint/index.ts';
import { writeDefinitions } from '../../support/temp-definitions.ts';

const owners = `import { collection, field } from 'DSL';
export default collection({
  name: 'owners',
  fields: { owner_name: field.string({ required: true }) },
  versions: { v1: {} },
});
`;

const cats = (options: string) => `import { collection, field } from 'DSL';
export default collection({
  name: 'cats',
  fields: {
    cat_name: field.string({ required: true }),
    owner: field.reference('owners', ${options}),
  },
  versions: { v1: {} },
});
`;

const placed = async (given: Record<string, string>) =>
  (await lintDefinitions(writeDefinitions(given))).map(({ rule, severity, message, file, line, column }) => ({
    rule,
    severity,
    message,
    file,
    line,
    column,
  }));

describe("lint of a reference's onDelete", () => {
  it('accepts cascade on a required reference, set-null on an optional one', async () => {
    expect(await placed({ 'owners.ts': owners, 'cats.ts': cats("{ required: true, onDelete: 'cascade' }") })).toEqual(
      [],
    );
    expect(await placed({ 'owners.ts': owners, 'cats.ts': cats("{ onDelete: 'set-null' }") })).toEqual([]);
  });

  it('on-delete-set-null: a required reference that a delete would empty, at the field', async () => {
    expect(await placed({ 'owners.ts': owners, 'cats.ts': cats("{ required: true, onDelete: 'set-null' }") })).toEqual([
      {
        rule: 'on-delete-set-null',
        severity: 'error',
        message: `reference "owner" of collection "cats" is required and declares onDelete: 'set-null': deleting its owners row could never empty it; use 'cascade' or 'restrict', or make the field optional`,
        file: 'definitions/cats.ts',
        line: 6,
        column: 5,
      },
    ]);
  });

  it('on-delete-array: an array of references whose item declares onDelete, at the item', async () => {
    const litters = `import { collection, field } from 'DSL';
export default collection({
  name: 'litters',
  fields: {
    owners: field.array(field.reference('owners', { onDelete: 'cascade' })),
  },
  versions: { v1: {} },
});
`;
    expect(await placed({ 'owners.ts': owners, 'litters.ts': litters })).toEqual([
      {
        rule: 'on-delete-array',
        severity: 'error',
        message: `array "owners" of collection "litters" declares onDelete: 'cascade' on its items, but an array of references always restricts: deleting a owners row it names is refused with 409; drop onDelete, or make it a single reference`,
        file: 'definitions/litters.ts',
        line: 5,
        column: 25,
      },
    ]);
  });
});

describe('references are held by collections only', () => {
  it('reference-holder: a reference or an array of references in an aggregate or a setting, at the field', async () => {
    const litter = `import { aggregate, field } from 'DSL';
export default aggregate({
  name: 'litters',
  parent: 'owners',
  fields: {
    vet: field.reference('owners'),
    siblings: field.array(field.reference('owners')),
  },
  versions: { v1: {} },
});
`;
    const defaults = `import { setting, field } from 'DSL';
export default setting({
  name: 'defaults',
  fields: { owner: field.reference('owners') },
  versions: { v1: {} },
});
`;
    const found = await placed({ 'owners.ts': owners, 'litter.ts': litter, 'defaults.ts': defaults });
    expect(found.map(({ rule, file, line, column }) => [rule, file, line, column])).toEqual([
      ['reference-holder', 'definitions/defaults.ts', 4, 13],
      ['reference-holder', 'definitions/litter.ts', 6, 5],
      ['reference-holder', 'definitions/litter.ts', 7, 5],
    ]);
    expect(found[1]!.message).toBe(
      `field "vet" of aggregate "litters" refers to "owners", but only a collection's rows hold references (checked on write, served as URIs, guarded on delete): declare the field in a collection, or hold the identifier as a plain integer or string`,
    );
  });
});
