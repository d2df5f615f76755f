import type { Context } from 'koa';
import type { Maybe } from '../storage/index.ts';

/**
 * Checks a write's preconditions (If-Match) against the current representation, inside the write's
 * transaction so that two writers holding the same tag cannot both pass. Renders only when the request carries a precondition; the rendering may read the store (expansion).
 */
export type PreconditionCheck = (ctx: Context, renderCurrent: () => Maybe<Record<string, unknown>>) => Maybe<void>;
