import type { TableSpec } from '../table-spec.ts';
import { CONVERTIBLE_VALUES, conversionOf } from './conversions.ts';
import type { Migration, MigrationStep } from './migration.ts';

/** A table as `migration` leaves it (steps name tables and columns by their names after the migration). */
export function tableAfter(migration: Migration, table: string): TableSpec {
  const found = migration.schema.tables.find((candidate) => candidate.table === table);
  if (found === undefined) throw new Error(`migration ${migration.id} changes table ${table}, which its schema does not have`);
  return found;
}

/** The message of a conversion stopped by a value that does not convert. */
export function refusalMessage(migration: Migration, step: Extract<MigrationStep, { op: 'convert-column' }>, keyName: string) {
  return ({ key, value }: { readonly key: unknown; readonly value: unknown }) =>
    `migration ${migration.id} cannot convert ${step.table}.${step.column} from ${step.from} to ${step.to}: the row ${keyName} ${JSON.stringify(key)} holds ${JSON.stringify(value)}, which is not ${CONVERTIBLE_VALUES[conversionOf(step.from, step.to)!]}; correct such rows and start again, or write the migration again with --accept-data-loss to empty them`;
}
