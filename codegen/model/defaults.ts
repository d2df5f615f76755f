import pluralize from 'pluralize';

/** Every default of the toolkit, in one place. */
export const DEFAULTS = {
  identifierType: 'integer',
  identifierAssignedBy: 'server',
  paging: { defaultLimit: 50, maxLimit: 500 },
  jobConcurrency: 2,
} as const;

/**
 * The last word of a hyphenated name and the words before it: inflection applies to the last word
 * (`book-shelves` → `book-shelf`), the rest is kept.
 */
function splitLastWord(name: string): [string, string] {
  const at = name.lastIndexOf('-') + 1;
  return [name.slice(0, at), name.slice(at)];
}

/**
 * `orders` → `order`, `entries` → `entry`, `people` → `person`, `book-shelves` → `book-shelf`,
 * from the pluralize library's English rules (irregular and uncountable words included).
 */
export function singularOf(plural: string): string {
  const [head, last] = splitLastWord(plural);
  return head + pluralize.singular(last);
}

/** `order` → `orders`, `person` → `people`, `book-shelf` → `book-shelves`. */
export function pluralOf(singular: string): string {
  const [head, last] = splitLastWord(singular);
  return head + pluralize.plural(last);
}

/**
 * The identifier a collection gets when its definition names none: `orders` → `order_id`. Path
 * segments join words with hyphens, properties with underscores: `trade-orders` → `trade_order_id`.
 */
export function defaultIdentifierName(collection: string): string {
  return `${singularOf(collection).replaceAll('-', '_')}_id`;
}

/** A collection name is plural when its last word is (`status` is not; `statuses`, `people`, `news` are). */
export function isPlural(name: string): boolean {
  return pluralize.isPlural(splitLastWord(name)[1]);
}
