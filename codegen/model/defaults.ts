/** Every default of the toolkit, in one place. */
export const DEFAULTS = {
  identifierType: 'integer',
  identifierAssignedBy: 'server',
  paging: { defaultLimit: 50, maxLimit: 500 },
  jobConcurrency: 2,
} as const;

/** `orders` → `order`, `entries` → `entry`, `addresses` → `address`; a name with no plural ending is returned as is. */
export function singularOf(plural: string): string {
  if (/ies$/.test(plural)) return `${plural.slice(0, -3)}y`;
  if (/(ss|x|ch|sh|z)es$/.test(plural)) return plural.slice(0, -2);
  if (/[^s]s$/.test(plural)) return plural.slice(0, -1);
  return plural;
}

/**
 * The identifier a collection gets when its definition names none: `orders` → `order_id`. Path
 * segments join words with hyphens, properties with underscores: `trade-orders` → `trade_order_id`.
 */
export function defaultIdentifierName(collection: string): string {
  return `${singularOf(collection).replaceAll('-', '_')}_id`;
}

/** A collection name is plural when it has a plural ending (English regular plurals). */
export function isPlural(name: string): boolean {
  return singularOf(name) !== name;
}
