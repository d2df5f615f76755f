import type { ColumnKind, TableSpec } from '../table-spec.ts';

/** The columns of one table as the database has them: name → SQL type, lowercase. Undefined: no such table. */
export type LiveColumns = ReadonlyMap<string, string> | undefined;

/** The database's tables differ from the definitions in a way no migration covers. */
export class SchemaMismatchError extends Error {
  override readonly name = 'SchemaMismatchError';
}

const ADVICE = 'write the migration with `npm run convapi -- migrate new <name>` (docs/changing-your-data.md)';

/**
 * Compares the declared tables with the database's (after every migration has run): a missing table
 * or column, or a column of another type, throws SchemaMismatchError naming the table and column, so
 * the server never serves a value of the wrong type. Columns the definitions no longer declare are
 * left alone: their values are kept until a migration removes them.
 */
export function checkSchema(tables: readonly TableSpec[], live: (table: string) => LiveColumns, types: { readonly columns: Record<ColumnKind, string>; readonly key: Record<'integer' | 'string', string> }): void {
  for (const table of tables) {
    const columns = live(table.table);
    if (columns === undefined) throw new SchemaMismatchError(`the database has no table ${table.table}, which the definitions declare; ${ADVICE}`);
    const wanted: Array<[string, string, string]> = [
      [table.key.name, types.key[table.key.type], `${table.key.type} identifier`],
      ...table.columns.map((column): [string, string, string] => [column.name, types.columns[column.kind], column.kind]),
    ];
    for (const [name, type, kind] of wanted) {
      const found = columns.get(name);
      if (found === undefined) throw new SchemaMismatchError(`table ${table.table} has no column ${name}, which the definitions declare (${kind}); ${ADVICE}`);
      if (found !== type.toLowerCase()) throw new SchemaMismatchError(`column ${table.table}.${name} is ${found} in the database but the definitions declare ${article(kind)} ${kind} (${type.toLowerCase()}); ${ADVICE}`);
    }
  }
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');
