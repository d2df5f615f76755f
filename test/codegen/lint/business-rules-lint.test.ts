import { describe, expect, it } from 'vitest';
import { lintDefinitions } from '../../../codegen/lint/index.ts';
import { writeDefinitions } from '../../support/temp-definitions.ts';

const rooms = `import { collection, field } from 'DSL';
export default collection({
  name: 'rooms',
  fields: { label: field.string({ required: true }) },
  versions: { v1: {} },
});
`;

/** A collection with a rule, a computed field and a read-only field; each case breaks one thing. */
const bookings = `import { collection, field } from 'DSL';
export default collection({
  name: 'bookings',
  fields: {
    guest: field.string({ required: true }),
    guest_key: field.string({ readOnly: true }),
  },
  compute: { guest_key: (row) => row.guest?.toLowerCase() },
  rules: {
    *create({ data }) {
      yield* data.of('rooms').list();
    },
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

describe('lint of business rules: each mistake at its line and column', () => {
  it('a correct declaration has no finding', async () => {
    expect(await placed({ 'rooms.ts': rooms, 'bookings.ts': bookings })).toEqual([]);
  });

  it('read-only-required: a read-only field that is also required on input', async () => {
    expect(
      await placed({
        'rooms.ts': rooms,
        'bookings.ts': bookings.replace('readOnly: true', 'readOnly: true, required: true'),
      }),
    ).toEqual([
      {
        rule: 'read-only-required',
        severity: 'error',
        message:
          'field "guest_key" of collection "bookings" is read-only and required: clients cannot send it, so no write could pass; drop required (the server sets it)',
        file: 'definitions/bookings.ts',
        line: 6,
        column: 5,
      },
    ]);
  });

  it('computed-field: compute names a field that is not read-only', async () => {
    expect(
      await placed({
        'rooms.ts': rooms,
        'bookings.ts': bookings.replace('field.string({ readOnly: true })', 'field.string()'),
      }),
    ).toEqual([
      {
        rule: 'computed-field',
        severity: 'error',
        message:
          'compute names "guest_key", which is not read-only: declare it with readOnly: true, so that clients do not write a value the server replaces',
        file: 'definitions/bookings.ts',
        line: 8,
        column: 14,
      },
    ]);
  });

  it('rule-unknown-collection: a rule naming a collection no definition declares, at the name', async () => {
    expect(await placed({ 'bookings.ts': bookings })).toEqual([
      {
        rule: 'rule-unknown-collection',
        severity: 'error',
        message:
          'the create rule of collection "bookings" names collection "rooms", which no definition declares; name a declared collection (or pass its declaration to data.of())',
        file: 'definitions/bookings.ts',
        line: 11,
        column: 23,
      },
    ]);
  });

  it('rule-unknown-collection: also where the rule asks for every row', async () => {
    const everyRow = bookings.replace("data.of('rooms').list()", "data.of('rooms', { rows: 'all' }).list()");
    expect(await placed({ 'rooms.ts': rooms, 'bookings.ts': everyRow })).toEqual([]);
    expect(await placed({ 'bookings.ts': everyRow })).toEqual([
      expect.objectContaining({
        rule: 'rule-unknown-collection',
        file: 'definitions/bookings.ts',
        line: 11,
        column: 23,
      }),
    ]);
  });

  it('a rule naming a field that does not exist is a type error at its position', async () => {
    const findings = await placed({
      'rooms.ts': rooms,
      'bookings.ts': bookings.replace('row.guest?.toLowerCase()', 'row.gest?.toLowerCase()'),
    });
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'type-check',
        severity: 'error',
        file: 'definitions/bookings.ts',
        line: 8,
        column: 38,
      }),
    ]);
    expect(findings[0]!.message).toContain("'gest'");
  });
});
