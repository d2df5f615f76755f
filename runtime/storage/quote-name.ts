/** Quotes an SQL identifier (SQLite and PostgreSQL alike). Names come from validated definitions, but quoting keeps words such as `order` legal. */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
