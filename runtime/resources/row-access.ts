import type { Caller } from '../auth/index.ts';
import type { Row, RowCondition } from '../storage/index.ts';

/** A value of the caller a row rule compares a field with (the DSL's CallerValue). */
export interface CallerValueModel {
  readonly caller: 'user' | 'client';
}

/** One row rule, as the DSL declares it (the runtime keeps its own copy of the shapes: it imports nothing of the DSL). */
export type RowRuleModel =
  | { readonly field: string; readonly equals: CallerValueModel | string | number | boolean }
  | { readonly field: string; readonly notEquals: CallerValueModel | string | number | boolean }
  | { readonly scope: string }
  | { readonly all: readonly RowRuleModel[] }
  | { readonly any: readonly RowRuleModel[] };

/** Which rows a caller may see and change (absent: every row). */
export interface RowAccessModel {
  readonly see?: RowRuleModel;
  readonly change?: RowRuleModel;
}

/** What a rule leaves once the caller is known: every row, no row, or a condition on the row's columns. */
type Residual = boolean | RowCondition;

const NO_ROW: RowCondition = Object.freeze({ any: Object.freeze([]) });

/** The operand's value for this caller; undefined when the caller has none (no user): then no row matches. */
function operandOf(operand: CallerValueModel | string | number | boolean, caller: Caller | undefined): unknown {
  if (typeof operand !== 'object') return operand;
  return operand.caller === 'user' ? caller?.user : caller?.client;
}

/** The rule with the caller's scopes decided and its values in place, folded: true and false where they are known. */
function residualOf(rule: RowRuleModel, caller: Caller | undefined): Residual {
  if ('scope' in rule) return caller?.scopes.includes(rule.scope) === true;
  if ('all' in rule || 'any' in rule) {
    const every = 'all' in rule;
    const parts: RowCondition[] = [];
    for (const part of every ? rule.all : rule.any) {
      const residual = residualOf(part, caller);
      if (residual === !every) return !every;
      if (residual !== every) parts.push(residual as RowCondition);
    }
    if (parts.length === 0) return every;
    return parts.length === 1 ? parts[0]! : every ? { all: parts } : { any: parts };
  }
  const equals = 'equals' in rule;
  const value = operandOf(equals ? rule.equals : rule.notEquals, caller);
  if (value === undefined) return false;
  return equals ? { column: rule.field, equals: value } : { column: rule.field, notEquals: value };
}

/**
 * The condition a read adds for this caller: undefined when the rule lets it see every row (then the
 * read is the one made without row access), `{ any: [] }` when it sees none.
 */
export function rowCondition(rule: RowRuleModel, caller: Caller | undefined): RowCondition | undefined {
  const residual = residualOf(rule, caller);
  return residual === true ? undefined : residual === false ? NO_ROW : residual;
}

/**
 * The same rule checked on one row in memory: what a write checks on the row it is about to store,
 * and what the property test holds against the SQL the stores run. A field compared with notEquals
 * must be set, as in SQL (NULL <> x is not true).
 */
export function rowMatches(rule: RowRuleModel, caller: Caller | undefined, row: Row): boolean {
  if ('scope' in rule) return caller?.scopes.includes(rule.scope) === true;
  if ('all' in rule) return rule.all.every((part) => rowMatches(part, caller, row));
  if ('any' in rule) return rule.any.some((part) => rowMatches(part, caller, row));
  const equals = 'equals' in rule;
  const value = operandOf(equals ? rule.equals : rule.notEquals, caller);
  const stored = row[rule.field];
  if (value === undefined || stored === undefined || stored === null) return false;
  return equals ? stored === value : stored !== value;
}
