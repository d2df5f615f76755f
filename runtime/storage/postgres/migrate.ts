import type pg from 'pg';
import { defaultClause } from '../column-default.ts';
import { quoteName } from '../quote-name.ts';
import type { ColumnKind, IndexedColumn, TableSpec } from '../table-spec.ts';
import { sortIndexName } from '../list-shape.ts';

/** The PostgreSQL type of each kind of column (the start's schema check compares them too). */
export const COLUMN_TYPES: Record<ColumnKind, string> = {
  string: 'text',
  time: 'text',
  integer: 'bigint',
  number: 'double precision',
  boolean: 'boolean',
  // A reference holds the target's id, integer or string: text compares equal to either as a parameter.
  reference: 'text',
  json: 'jsonb',
};

export const POSTGRES_BOOLEANS = { true: 'true', false: 'false' };

/**
 * A column as lists sort and compare it: text in byte order (COLLATE "C"), as SQLite compares it,
 * whatever the database's collation, so both engines give the same order; numbers as they are. The
 * sort indexes are built on the same expression, so the planner can use them.
 */
export function sortExpression(table: TableSpec, column: string): string {
  const kind =
    column === table.key.name ? table.key.type : table.columns.find((candidate) => candidate.name === column)?.kind;
  return kind === 'string' || kind === 'time' || kind === 'reference'
    ? `${quoteName(column)} COLLATE "C"`
    : quoteName(column);
}

/** The generated column holding a table's full-text document, and its GIN index. */
export const SEARCH_COLUMN = '__search';

/** One lock key for every migration of every instance: they run one at a time. */
const MIGRATION_LOCK = 'convapi:migrate';

/**
 * Runs `work` in one transaction holding the migration lock, so that instances starting at once
 * migrate one after the other (the second finds the tables made and changes nothing). DDL is
 * transactional in PostgreSQL: a failed migration leaves nothing half done.
 */
export async function underMigrationLock(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
    await work(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Brings the database up to the declared tables without losing data: creates missing tables, adds
 * columns for fields declared since (nullable, so existing rows stay readable; with the field's
 * default when it has one, which existing rows then hold), creates unique and
 * filter indexes, and keeps one generated tsvector column per table with searchable fields, which
 * PostgreSQL recomputes in the same transaction as every write. Nothing but that column is dropped.
 */
export async function migrateTables(client: pg.PoolClient, tables: readonly TableSpec[]): Promise<void> {
  for (const table of tables) {
    const name = quoteName(table.table);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${name} (${keyDefinition(table)}, created_at text NOT NULL, updated_at text NOT NULL)`,
    );
    const existing = await client.query<{ column_name: string }>(
      'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
      [table.table],
    );
    const present = new Set(existing.rows.map((row) => row.column_name));
    for (const column of table.columns) {
      if (!present.has(column.name))
        await client.query(
          `ALTER TABLE ${name} ADD COLUMN ${quoteName(column.name)} ${COLUMN_TYPES[column.kind]}${defaultClause(column, POSTGRES_BOOLEANS)}`,
        );
      const index = createIndexSql(table, column);
      if (index !== undefined) await client.query(index);
    }
    await migrateSearchColumn(client, table, present.has(SEARCH_COLUMN));
  }
}

/**
 * The statement making a column's index, if it has one: unique; `(column, key)` for a sortable column,
 * in the order lists sort by (NULL first ascending; read backwards for a descending sort); or
 * `(column)` for an equality filter, a GIN index for an array's containment filter. The migrations make the same (migration-sql.ts).
 */
export function createIndexSql(table: TableSpec, column: IndexedColumn): string | undefined {
  const name = quoteName(table.table);
  if (column.unique)
    return `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteName(`${table.table}__${column.name}`)} ON ${name} (${quoteName(column.name)})`;
  if (column.sortable === true)
    return `CREATE INDEX IF NOT EXISTS ${quoteName(sortIndexName(table.table, column.name))} ON ${name} (${sortExpression(table, column.name)} ASC NULLS FIRST, ${sortExpression(table, table.key.name)})`;
  // An array (json) is filtered by containment (`@>`), which a GIN index serves, not a B-tree.
  const json = table.columns.find((candidate) => candidate.name === column.name)?.kind === 'json';
  if (column.indexed)
    return `CREATE INDEX IF NOT EXISTS ${quoteName(`${table.table}__${column.name}`)} ON ${name}${json ? ` USING gin (${quoteName(column.name)} jsonb_path_ops)` : ` (${quoteName(column.name)})`}`;
  return undefined;
}

/** The key column's definition: a generated integer key is an identity column. */
export function keyDefinition(table: TableSpec): string {
  const key = quoteName(table.key.name);
  return table.key.type === 'integer' && table.key.generated
    ? `${key} bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY`
    : `${key} ${table.key.type === 'integer' ? 'bigint' : 'text'} PRIMARY KEY`;
}

/**
 * The search document: `to_tsvector('simple', ...)` over the searchable columns, a stored generated
 * column with a GIN index. The column's comment names the columns it covers; when the declared set
 * changes, the column is dropped and made again (PostgreSQL computes it for every existing row).
 */
async function migrateSearchColumn(client: pg.PoolClient, table: TableSpec, exists: boolean): Promise<void> {
  const searchable = table.columns.filter((column) => column.searchable).map((column) => column.name);
  const name = quoteName(table.table);
  const column = quoteName(SEARCH_COLUMN);
  const wanted = searchable.join(',');
  if (exists) {
    const { rows } = await client.query<{ comment: string | null }>(
      `SELECT col_description(to_regclass($1), attnum) AS comment FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = $2`,
      [name, SEARCH_COLUMN],
    );
    if (rows[0]?.comment === wanted && searchable.length > 0) return;
    await client.query(`ALTER TABLE ${name} DROP COLUMN ${column}`);
  }
  for (const statement of addSearchColumn(table.table, searchable)) await client.query(statement);
}

/**
 * The statements that add the search column over `searchable` (none when empty): the generated
 * column, its GIN index, and the comment naming the columns it covers.
 */
export function addSearchColumn(table: string, searchable: readonly string[]): string[] {
  if (searchable.length === 0) return [];
  const name = quoteName(table);
  const column = quoteName(SEARCH_COLUMN);
  const document = searchable.map((field) => `coalesce(${quoteName(field)}::text, '')`).join(` || ' ' || `);
  return [
    `ALTER TABLE ${name} ADD COLUMN ${column} tsvector GENERATED ALWAYS AS (to_tsvector('simple', ${document})) STORED`,
    `CREATE INDEX IF NOT EXISTS ${quoteName(`${table}__search`)} ON ${name} USING gin (${column})`,
    `COMMENT ON COLUMN ${name}.${column} IS '${searchable.join(',').replaceAll("'", "''")}'`,
  ];
}
