/** The HTTP methods a declaration's operations are reached by. */
export type ScopedMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The scopes a caller's token must all hold, per HTTP method, for every operation of a declaration
 * reached by it (`{ POST: ['notes:write'], DELETE: ['notes:write'] }`). A call without one of them
 * answers 403 insufficient_scope. A scope is lowercase words joined by `:` (`notes:write`; lint:
 * malformed-scope). A method left out needs no scope, but for the PATCH of an aggregate or a
 * setting, which needs what its PUT needs unless PATCH is named.
 */
export type ScopesByMethod = Readonly<Partial<Record<ScopedMethod, readonly string[]>>>;
