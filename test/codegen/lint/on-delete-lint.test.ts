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
