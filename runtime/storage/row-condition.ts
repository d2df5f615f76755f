import { columnKind } from './row-values.ts';
import { quoteName } from './quote-name.ts';
import type { ColumnKind, RowCondition, TableSpec } from './table-spec.ts';

export type { RowCondition };

/** A condition as SQL text (parenthesised) and its parameter values, in order. */
export interface ConditionSql {
  readonly sql: string;
  readonly values: readonly unknown[];
}

/**
 * The condition as SQL for one engine: `placeholder(n)` writes the n-th parameter, numbered from
 * `first` (`$n` for PostgreSQL; a plain `?` for SQLite, whose values bind in the order they appear); `toValue` converts a value to what the engine binds for
 * the column's kind. The same condition gives the same text, so each engine's statement cache finds it.
 * A column compared with <> must be set: NULL <> x is not true in SQL, nor in the in-memory check.
 */
export function conditionSql(
  table: TableSpec,
  condition: RowCondition,
  placeholder: (index: number) => string,
  first: number,
  toValue: (kind: ColumnKind, value: unknown) => unknown,
): ConditionSql {
  const values: unknown[] = [];
  const render = (node: RowCondition): string => {
    if ('all' in node) return node.all.length === 0 ? '(1 = 1)' : `(${node.all.map(render).join(' AND ')})`;
    if ('any' in node) return node.any.length === 0 ? '(1 = 0)' : `(${node.any.map(render).join(' OR ')})`;
    const equals = 'equals' in node;
    values.push(toValue(columnKind(table, node.column), equals ? node.equals : node.notEquals));
    return `(${quoteName(node.column)} ${equals ? '=' : '<>'} ${placeholder(first + values.length - 1)})`;
  };
  const sql = render(condition);
  return { sql, values };
}
