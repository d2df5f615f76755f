/**
 * The placeholder every SQLite statement uses: a plain `?`, its values bound in the order the
 * placeholders appear (a value used twice is bound twice). Never a numbered one (`?1`): node:sqlite
 * of Node 22.18 and 22.19 binds positional values only to nameless parameters, and `?1` has a name,
 * so such a statement fails there with "column index out of range" (docs/node-versions.md).
 */
export const plainParameter = (): string => '?';
