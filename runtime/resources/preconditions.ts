import type { Context } from 'koa';
import type { Maybe } from '../storage/index.ts';

/**
 * Checks a write's preconditions (If-Match) against the current version, inside the write's
 * transaction so that two writers holding the same tag cannot both pass. `renderCanonical` gives the
 * current canonical representation (every field, no expansion: what the version's tag is made
 * from, responses/version-tag.ts); it is called only when the request carries a precondition.
 */
export type PreconditionCheck = (ctx: Context, renderCanonical: () => Maybe<Record<string, unknown>>) => Maybe<void>;
