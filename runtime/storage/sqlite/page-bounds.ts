/**
 * The LIMIT and OFFSET of a paged statement, each a plain parameter (bound in that order). The limit
 * is `+?`, not `?`: the SQLite node:sqlite bundles plans a statement whose LIMIT is a bare parameter
 * with the value bound to it, so every run that binds a limit compiles the statement again (its step
 * re-prepares it, as after a schema change): a quarter of the time of a page of 20. An expression is
 * read when the statement runs, and the statement is compiled once.
 */
export const PAGE_BOUNDS_SQL = 'LIMIT +? OFFSET ?';
