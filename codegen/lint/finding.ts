/**
 * What a rule reports before it is placed: the rule, the message, and where in which definition —
 * the property path from the default export's object (`['fields', 'order']`), located later.
 */
export interface Finding {
  readonly rule: string;
  readonly source: string;
  readonly at: readonly string[];
  readonly message: string;
  /** The other place a finding is about (the declaration a duplicate repeats), placed, then named in the message where it says `{related}`, and in SARIF. */
  readonly related?: { readonly source: string; readonly at: readonly string[] };
  /** Point at the first argument of the call that is the property's value (`field.reference('x')`). */
  readonly argument?: boolean;
  /** Point at the first occurrence of this text inside the property (a collection a rule names: `'rooms'`). */
  readonly text?: string;
}
