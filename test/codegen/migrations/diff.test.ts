import { describe, expect, it } from 'vitest';
import type { ColumnSpec, TableSpec } from '@convapi/runtime';
import { diffSchema } from '../../../codegen/migrations/diff.ts';
import type { DeclaredTable } from '../../../codegen/model/tables.ts';
import type { ResolvedField } from '../../../codegen/model/index.ts';

const column = (name: string, kind: ColumnSpec['kind'], options: Partial<ColumnSpec> = {}): ColumnSpec => ({ name, kind, unique: false, indexed: false, searchable: false, ...options });
const table = (name: string, columns: ColumnSpec[]): TableSpec => ({ table: name, key: { name: 'id', type: 'integer', generated: true }, columns });
/** A declared table; `renamed` maps a column to its declared former name. */
const declared = (spec: TableSpec, renamed: Record<string, string> = {}, renamedFrom?: string): DeclaredTable => ({
  spec,
  source: 'definitions/things.ts',
  fields: spec.columns.map((c) => ({ name: c.name, kind: c.kind, access: ['fields', c.name], ...(renamed[c.name] === undefined ? {} : { renamedFrom: renamed[c.name] }) }) as unknown as ResolvedField),
  ...(renamedFrom === undefined ? {} : { renamedFrom }),
});
const diff = (before: TableSpec[], after: DeclaredTable[], acceptDataLoss = false) => diffSchema(before, after, { acceptDataLoss, snapshotSource: 'migrations/0001_x.json' });

describe('diffSchema: the steps from the last migration\'s schema to the definitions', () => {
  const things = table('things', [column('name', 'string', { indexed: true })]);

  it('a rename without renamedFrom is the removal (losing data) and the addition it would be', () => {
    const { steps, changes } = diff([things], [declared(table('things', [column('title', 'string', { indexed: true })]))]);
    expect(steps.map((step) => step.op)).toEqual(['drop-index', 'drop-column', 'add-column', 'add-index']);
    expect(changes.find((change) => change.loses !== undefined)?.change).toContain("field things.name is no longer declared; removing it loses the values of things.name in every row (if it was renamed, declare renamedFrom: 'name' on the new field)");
  });

  it('a field made sortable swaps its filter index for the (column, key) one; a renamed sortable field remakes it under the new name', () => {
    const sortable = column('name', 'string', { indexed: true, sortable: true });
    const made = diff([things], [declared(table('things', [sortable]))]);
    expect(made.steps).toEqual([
      { op: 'drop-index', table: 'things', column: 'name' },
      { op: 'add-index', table: 'things', column: 'name', unique: false, sorted: true },
    ]);
    expect(made.changes.map((change) => change.change)).toEqual(['the index of things.name changes from filter to sorted']);
    const renamed = diff([table('things', [sortable])], [declared(table('things', [{ ...sortable, name: 'title' }]), { title: 'name' })]);
    expect(renamed.steps).toEqual([
      { op: 'drop-index', table: 'things', column: 'name', sorted: true },
      { op: 'rename-column', table: 'things', from: 'name', to: 'title' },
      { op: 'add-index', table: 'things', column: 'title', unique: false, sorted: true },
    ]);
  });

  it('a declared rename moves the column and remakes its index under the new name', () => {
    const { steps, changes } = diff([things], [declared(table('things', [column('title', 'string', { indexed: true })]), { title: 'name' })]);
    expect(steps).toEqual([
      { op: 'drop-index', table: 'things', column: 'name' },
      { op: 'rename-column', table: 'things', from: 'name', to: 'title' },
      { op: 'add-index', table: 'things', column: 'title', unique: false },
    ]);
    expect(changes.every((change) => change.loses === undefined)).toBe(true);
  });

  it.each([
    ['string', 'integer', { unconvertible: 'refuse' }, undefined],
    ['integer', 'string', { unconvertible: 'refuse' }, undefined],
    ['time', 'integer', undefined, 'no conversion from time to integer exists; declare a new field, fill it, then remove this one'],
  ] as const)('%s -> %s', (from, to, step, refused) => {
    const { steps, changes } = diff([table('things', [column('value', from)])], [declared(table('things', [column('value', to)]))]);
    if (step === undefined) expect(steps).toEqual([]);
    else expect(steps).toEqual([{ op: 'convert-column', table: 'things', column: 'value', from, to, ...step }]);
    expect(changes[0]?.refused).toBe(refused);
  });

  it('a narrowing conversion with data loss accepted empties what does not convert, and says so', () => {
    const { steps, changes } = diff([table('things', [column('value', 'string')])], [declared(table('things', [column('value', 'integer')]))], true);
    expect(steps).toEqual([{ op: 'convert-column', table: 'things', column: 'value', from: 'string', to: 'integer', unconvertible: 'set-null', loses: 'the values of things.value that do not convert' }]);
    expect(changes[0]?.loses).toBe('the values of things.value that do not convert');
  });

  it('a declared collection rename renames the table, and its indexes and search index with it', () => {
    const searchable = table('things', [column('name', 'string', { indexed: true, searchable: true })]);
    const { steps } = diff([searchable], [declared({ ...searchable, table: 'items' }, {}, 'things')]);
    expect(steps).toEqual([
      { op: 'drop-index', table: 'things', column: 'name' },
      { op: 'search-index', table: 'things', columns: [] },
      { op: 'rename-table', from: 'things', to: 'items' },
      { op: 'add-index', table: 'items', column: 'name', unique: false },
      { op: 'search-index', table: 'items', columns: ['name'] },
    ]);
  });

  it('an index that changes kind is remade; a table no longer declared is dropped, losing its rows', () => {
    const { steps, changes } = diff([things, table('gone', [])], [declared(table('things', [column('name', 'string', { unique: true, indexed: true })]))]);
    expect(steps).toEqual([
      { op: 'drop-table', table: 'gone', loses: 'every row of gone' },
      { op: 'drop-index', table: 'things', column: 'name' },
      { op: 'add-index', table: 'things', column: 'name', unique: true },
    ]);
    expect(changes.map((change) => change.source)).toEqual(['migrations/0001_x.json', 'definitions/things.ts']);
  });
});
