/** What an OpenAPI rule reports: the rule, the message, and the path of keys to the offending node. */
export interface OpenApiFinding {
  readonly rule: string;
  readonly at: readonly (string | number)[];
  readonly message: string;
  /** Point at the node's value instead of its key (default: the key, which names what is wrong). */
  readonly on?: 'key' | 'value';
}
