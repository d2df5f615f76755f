// The migration files' format, shared by the generator that writes them and the runtime that applies
// them (the package's `@convapi/runtime/migrations`).
export type { ColumnKind, ColumnSpec, TableSpec } from '../table-spec.ts';
export { parseMigration, MigrationFileError, type Migration, type MigrationPlan, type MigrationSource, type MigrationStep, type SchemaSnapshot } from './migration.ts';
export { CONVERSIONS, CONVERTIBLE_VALUES, conversionOf, type Conversion } from './conversions.ts';
export { keepsMigrations, migrationIds, MIGRATION_FILE_NAME, MIGRATIONS_FOLDER, readMigrationSources } from './files.ts';
