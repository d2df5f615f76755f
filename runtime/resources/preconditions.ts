import type { Context } from 'koa';

/**
 * Checks a write's preconditions (If-Match) against the current representation, inside the write's
 * transaction so that two writers holding the same tag cannot both pass.
 */
export type PreconditionCheck = (ctx: Context, renderCurrent: () => Record<string, unknown>) => void;
