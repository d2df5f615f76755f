import { defaultClause } from '../column-default.ts';
import type { Conversion } from '../migrations/conversions.ts';
import { conversionOf } from '../migrations/conversions.ts';
import type { Migration, MigrationStep } from '../migrations/migration.ts';
import { run, type MigrationStatement } from '../migrations/statements.ts';
import { refusalMessage, tableAfter } from '../migrations/step-context.ts';
import type { ColumnSpec } from '../table-spec.ts';
import { COLUMN_TYPES, createIndexSql, keyDefinition, SQLITE_BOOLEANS } from './migrate.ts';
import { sortIndexName } from '../list-shape.ts';
import { searchIndexOf } from './search-index.ts';
import { ftsTableOf, quoteName } from './sql-names.ts';

/** The SQL of each conversion on SQLite: which values convert, and what they become (`v`: the quoted column). */
const CONVERSIONS: Record<
  Conversion,
  { readonly convertible: (v: string) => string; readonly convert: (v: string) => string }
> = {
  'string->integer': {
    // Digits after an optional minus sign, at most 18 of them: GLOB has no repetition, so length() bounds it.
    convertible: (v) => {
      const digits = `(CASE WHEN substr(trim(${v}), 1, 1) = '-' THEN substr(trim(${v}), 2) ELSE trim(${v}) END)`;
      return `(length(${digits}) BETWEEN 1 AND 18 AND ${digits} NOT GLOB '*[^0-9]*')`;
    },
    convert: (v) => `CAST(trim(${v}) AS INTEGER)`,
  },
  'integer->string': { convertible: () => '1', convert: (v) => `CAST(${v} AS TEXT)` },
  'integer->number': { convertible: () => '1', convert: (v) => `CAST(${v} AS REAL)` },
  'number->integer': {
    convertible: (v) => `(${v} = CAST(${v} AS INTEGER) AND abs(${v}) < 1e18)`,
    convert: (v) => `CAST(${v} AS INTEGER)`,
  },
  'boolean->string': { convertible: () => '1', convert: (v) => `(CASE ${v} WHEN 1 THEN 'true' ELSE 'false' END)` },
  'time->string': { convertible: () => '1', convert: (v) => v },
};

const indexName = (table: string, column: string, sorted: boolean | undefined) =>
  quoteName(sorted === true ? sortIndexName(table, column) : `${table}__${column}`);
const columnDefinition = (column: ColumnSpec) =>
  `${quoteName(column.name)} ${COLUMN_TYPES[column.kind]}${defaultClause(column, SQLITE_BOOLEANS)}`;

/** What applying `migration` runs on SQLite, in order (one transaction; see apply-migrations.ts). */
export function sqliteMigrationStatements(migration: Migration): MigrationStatement[] {
  return migration.steps.flatMap((step) => statementsOf(step, migration));
}

function statementsOf(step: MigrationStep, migration: Migration): MigrationStatement[] {
  switch (step.op) {
    case 'create-table': {
      const { table, columns } = step.table;
      const definitions = [
        keyDefinition(step.table),
        'created_at TEXT NOT NULL',
        'updated_at TEXT NOT NULL',
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
      return [
        run(`DROP TABLE IF EXISTS ${quoteName(ftsTableOf(step.table))}`),
        run(`DROP TABLE ${quoteName(step.table)}`),
      ];
    case 'add-column':
      return [run(`ALTER TABLE ${quoteName(step.table)} ADD COLUMN ${columnDefinition(step.column)}`)];
    case 'rename-column':
      return [
        run(`ALTER TABLE ${quoteName(step.table)} RENAME COLUMN ${quoteName(step.from)} TO ${quoteName(step.to)}`),
      ];
    case 'drop-column':
      return [run(`ALTER TABLE ${quoteName(step.table)} DROP COLUMN ${quoteName(step.column)}`)];
    case 'add-index': {
      // A sorted index names the key and, on PostgreSQL, sorts by the column's kind: both as the migration leaves the table.
      const index = { name: step.column, unique: step.unique, indexed: true, sortable: step.sorted === true };
      const sql = createIndexSql(tableAfter(migration, step.table), index);
      return sql === undefined ? [] : [run(sql)];
    }
    case 'drop-index':
      return [run(`DROP INDEX IF EXISTS ${indexName(step.table, step.column, step.sorted)}`)];
    case 'search-index': {
      // No columns: the index goes (its table may be about to be renamed, and the schema after has it under its new name).
      if (step.columns.length === 0) return [run(`DROP TABLE IF EXISTS ${quoteName(ftsTableOf(step.table))}`)];
      const after = tableAfter(migration, step.table);
      const index = searchIndexOf({
        ...after,
        columns: after.columns.map((column) => ({ ...column, searchable: step.columns.includes(column.name) })),
      });
      return [
        run(`DROP TABLE IF EXISTS ${quoteName(ftsTableOf(step.table))}`),
        ...(index === undefined ? [] : [run(index.create), run(index.fill)]),
      ];
    }
    case 'convert-column':
      return convertColumn(step, migration);
  }
}

/**
 * SQLite keeps a column's type affinity for good, so a conversion writes the converted values into a
 * new column, drops the old one and gives the new one its name (the column's index is dropped before
 * and made again after, by the steps around this one).
 */
function convertColumn(
  step: Extract<MigrationStep, { op: 'convert-column' }>,
  migration: Migration,
): MigrationStatement[] {
  const conversion = CONVERSIONS[conversionOf(step.from, step.to)!];
  const table = tableAfter(migration, step.table);
  const column = table.columns.find((candidate) => candidate.name === step.column)!;
  const name = quoteName(step.table);
  const value = quoteName(step.column);
  const converting = quoteName(`${step.column}__converted`);
  const convertible = conversion.convertible(value);
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
    run(`ALTER TABLE ${name} ADD COLUMN ${columnDefinition({ ...column, name: `${step.column}__converted` })}`),
    run(
      `UPDATE ${name} SET ${converting} = CASE WHEN ${value} IS NOT NULL AND ${convertible} THEN ${conversion.convert(value)} END`,
    ),
    run(`ALTER TABLE ${name} DROP COLUMN ${value}`),
    run(`ALTER TABLE ${name} RENAME COLUMN ${converting} TO ${value}`),
  ];
}
