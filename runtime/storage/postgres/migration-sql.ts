import { defaultClause } from '../column-default.ts';
import type { Conversion } from '../migrations/conversions.ts';
import { conversionOf } from '../migrations/conversions.ts';
import type { Migration, MigrationStep } from '../migrations/migration.ts';
import { run, type MigrationStatement } from '../migrations/statements.ts';
import { refusalMessage, tableAfter } from '../migrations/step-context.ts';
import { quoteName } from '../quote-name.ts';
import type { ColumnSpec } from '../table-spec.ts';
import {
  addSearchColumn,
  COLUMN_TYPES,
  createIndexSql,
  keyDefinition,
  POSTGRES_BOOLEANS,
  SEARCH_COLUMN,
} from './migrate.ts';
import { sortIndexName } from '../list-shape.ts';

/** The SQL of each conversion on PostgreSQL: which values convert, and what they become (`v`: the quoted column). */
const CONVERSIONS: Record<
  Conversion,
  { readonly convertible: (v: string) => string; readonly convert: (v: string) => string }
> = {
  'string->integer': { convertible: (v) => `(trim(${v}) ~ '^-?[0-9]{1,18}$')`, convert: (v) => `trim(${v})::bigint` },
  'integer->string': { convertible: () => 'true', convert: (v) => `${v}::text` },
  'integer->number': { convertible: () => 'true', convert: (v) => `${v}::double precision` },
  'number->integer': {
    convertible: (v) => `(${v} = trunc(${v}) AND abs(${v}) < 1e18)`,
    convert: (v) => `${v}::bigint`,
  },
  'boolean->string': { convertible: () => 'true', convert: (v) => `(CASE WHEN ${v} THEN 'true' ELSE 'false' END)` },
  'time->string': { convertible: () => 'true', convert: (v) => v },
};

const indexName = (table: string, column: string, sorted: boolean | undefined) =>
  quoteName(sorted === true ? sortIndexName(table, column) : `${table}__${column}`);
const columnDefinition = (column: ColumnSpec) =>
  `${quoteName(column.name)} ${COLUMN_TYPES[column.kind]}${defaultClause(column, POSTGRES_BOOLEANS)}`;
/** The generated search column depends on the columns it covers: it goes before one of them is dropped or converted (a search-index step makes it again). */
const dropSearchColumn = (table: string) =>
  run(`ALTER TABLE ${quoteName(table)} DROP COLUMN IF EXISTS ${quoteName(SEARCH_COLUMN)}`);

/** What applying `migration` runs on PostgreSQL, in order (one transaction; see apply-migrations.ts). */
export function postgresMigrationStatements(migration: Migration): MigrationStatement[] {
  return migration.steps.flatMap((step) => statementsOf(step, migration));
}

function statementsOf(step: MigrationStep, migration: Migration): MigrationStatement[] {
  switch (step.op) {
    case 'create-table': {
      const { table, columns } = step.table;
      const definitions = [
        keyDefinition(step.table),
        'created_at text NOT NULL',
        'updated_at text NOT NULL',
        ...columns.map(columnDefinition),
      ];
      return [
        run(`CREATE TABLE IF NOT EXISTS ${quoteName(table)} (${definitions.join(', ')})`),
        ...columns.flatMap((column) => createIndexSql(step.table, column) ?? []).map(run),
      ];
    }
    case 'rename-table':
      return [run(`ALTER TABLE ${quoteName(step.from)} RENAME TO ${quoteName(step.to)}`)];
    case 'drop-table':
      return [run(`DROP TABLE ${quoteName(step.table)}`)];
    case 'add-column':
      return [run(`ALTER TABLE ${quoteName(step.table)} ADD COLUMN ${columnDefinition(step.column)}`)];
    case 'rename-column':
      return [
        run(`ALTER TABLE ${quoteName(step.table)} RENAME COLUMN ${quoteName(step.from)} TO ${quoteName(step.to)}`),
      ];
    case 'drop-column':
      return [
        dropSearchColumn(step.table),
        run(`ALTER TABLE ${quoteName(step.table)} DROP COLUMN ${quoteName(step.column)}`),
      ];
    case 'add-index': {
      // A sorted index names the key and, on PostgreSQL, sorts by the column's kind: both as the migration leaves the table.
      const index = { name: step.column, unique: step.unique, indexed: true, sortable: step.sorted === true };
      return [run(createIndexSql(tableAfter(migration, step.table), index)!)];
    }
    case 'drop-index':
      return [run(`DROP INDEX IF EXISTS ${indexName(step.table, step.column, step.sorted)}`)];
    case 'search-index':
      return [dropSearchColumn(step.table), ...addSearchColumn(step.table, step.columns).map(run)];
    case 'convert-column':
      return convertColumn(step, migration);
  }
}

/** ALTER COLUMN ... TYPE ... USING: the default goes first (it may not convert) and comes back in the new type. */
function convertColumn(
  step: Extract<MigrationStep, { op: 'convert-column' }>,
  migration: Migration,
): MigrationStatement[] {
  const conversion = CONVERSIONS[conversionOf(step.from, step.to)!];
  const table = tableAfter(migration, step.table);
  const column = table.columns.find((candidate) => candidate.name === step.column)!;
  const name = quoteName(step.table);
  const value = quoteName(step.column);
  const convertible = conversion.convertible(value);
  const defaultValue = defaultClause(column, POSTGRES_BOOLEANS).replace(/^ DEFAULT /, '');
  return [
    ...(step.unconvertible === 'refuse'
      ? [
          {
            kind: 'refuse-if-any' as const,
            sql: `SELECT ${quoteName(table.key.name)} AS key, ${value} AS value FROM ${name} WHERE ${value} IS NOT NULL AND NOT ${convertible} LIMIT 1`,
            message: refusalMessage(migration, step, table.key.name),
          },
        ]
      : []),
    dropSearchColumn(step.table),
    run(`ALTER TABLE ${name} ALTER COLUMN ${value} DROP DEFAULT`),
    run(
      `ALTER TABLE ${name} ALTER COLUMN ${value} TYPE ${COLUMN_TYPES[column.kind]} USING (CASE WHEN ${convertible} THEN ${conversion.convert(value)} END)`,
    ),
    ...(defaultValue === '' ? [] : [run(`ALTER TABLE ${name} ALTER COLUMN ${value} SET DEFAULT ${defaultValue}`)]),
  ];
}
