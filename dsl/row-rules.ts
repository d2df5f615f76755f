/**
 * Row access as data: small predicates over a row's stored fields and the caller, which the server
 * compiles once per collection into a WHERE clause (SQLite and PostgreSQL) and into an in-memory
 * check. A JavaScript callback could be neither, so a rule is one of these shapes, nothing more.
 */

/** A value of the caller a rule compares a field with: the user the token acts for, or its client. */
export interface CallerValue {
  readonly caller: 'user' | 'client';
}

/** What a field is compared with: a value of the caller, or a constant. */
export type RowOperand = CallerValue | string | number | boolean;

/**
 * One rule on rows:
 * - `{ field, equals }`: the stored field equals the operand (`{ field: 'owner', equals: caller.user }`);
 *   a caller without that value (a token acting for no user) matches no row;
 * - `{ field, notEquals }`: the stored field is set and differs from the operand;
 * - `{ scope }`: the caller's token holds the scope (every row, or none);
 * - `{ all: [...] }` (every rule holds; none listed: every row) and `{ any: [...] }` (one holds; none listed: no row).
 */
export type RowRule<Field extends string = string> =
  | { readonly field: Field; readonly equals: RowOperand }
  | { readonly field: Field; readonly notEquals: RowOperand }
  | { readonly scope: string }
  | { readonly all: readonly RowRule<Field>[] }
  | { readonly any: readonly RowRule<Field>[] };

/**
 * Which rows of a collection a caller may see and which it may change. `see` holds on every path that
 * reveals a row (a row the caller may not see answers exactly as a missing one: 404); `change` holds
 * for PUT, PATCH and DELETE of a visible row and for the row a write leaves behind (403 otherwise).
 * Left out: every row. `change` applies on top of `see`: a row must be visible to be changed.
 */
export interface RowAccess<Field extends string = string> {
  readonly see?: RowRule<Field>;
  readonly change?: RowRule<Field>;
}

/** The caller's values a rule can compare with: `{ field: 'owner', equals: caller.user }`. */
export const caller = {
  user: { caller: 'user' },
  client: { caller: 'client' },
} as const satisfies Record<string, CallerValue>;
