/** Quotes an identifier for SQLite. Names come from validated definitions, but quoting keeps words such as `order` legal. */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export const ftsTableOf = (table: string) => `${table}__search`;
