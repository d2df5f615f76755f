import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../runtime/errors/index.ts';
import type { FieldModel } from '../../../runtime/resources/model.ts';
import { valuesFromRules, type RuledModel } from '../../../runtime/resources/write-rules.ts';
import { runFlow } from '../../../runtime/storage/index.ts';

const string = (name: string, maxLength: number, readOnly = false): FieldModel => ({
  name,
  kind: 'string',
  required: false,
  unique: false,
  filterable: false,
  searchable: false,
  schema: z.string(),
  maxLength,
  ...(readOnly ? { readOnly } : {}),
});

/** guest_key, indexed, computed from guest_name, and set by the create rule to the guest's tag. */
const model: RuledModel = {
  name: 'reservations',
  fields: [string('guest_name', 10_000), string('guest_key', 655, true), string('tag', 20, true)],
  rules: { create: ({ next }: { next: { guest_name: string } }) => ({ tag: next.guest_name.slice(0, 30) }) },
  compute: { guest_key: (row: { guest_name: string }) => row.guest_name.toLowerCase() },
};

const create = (guest_name: string) =>
  runFlow(
    valuesFromRules(
      model,
      {
        operation: 'create',
        version: 'v1',
        input: { guest_name },
        stored: { guest_name },
        current: undefined,
        key: undefined,
      },
      undefined,
      undefined,
    ),
  );

describe('values a rule or a computation derives from a write', () => {
  it('within their fields’ bounds are stored', () => {
    expect(create('Ann')).toEqual({ tag: 'Ann', guest_key: 'ann' });
  });

  it('over them are a 400 value_too_long naming each field, instead of a write the store refuses', () => {
    let thrown: unknown;
    try {
      create('A'.repeat(700));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    const error = thrown as ApiError;
    expect([error.status, error.code, error.field]).toEqual([400, 'value_too_long', 'guest_key']);
    expect(error.entries.map((entry) => [entry.code, entry.field])).toEqual([
      ['value_too_long', 'guest_key'],
      ['value_too_long', 'tag'],
    ]);
  });
});
