import type { Caller } from '../auth/index.ts';
import type { ResourceContext } from '../resources/index.ts';
import { rowsForCaller } from '../resources/caller-rows.ts';
import { andThen, type Maybe } from '../storage/index.ts';
import type { JobQueuePort } from './api-definition.ts';

/** True when some collection of the catalog declares which rows a caller may see. */
export function anyRowRule(context: ResourceContext): boolean {
  return Object.values(context.catalog.collections).some((model) => model.rows?.see !== undefined);
}

/**
 * May this caller know of this job (its state, result, errors, the 303 to what it produced)?
 * - a job a caller queued (through the queue's PUT, or an asynchronous operation) is known only to
 *   that caller: the same client and user;
 * - where a collection declares a row rule (`rowRules`), a finished job that produced a row of it is
 *   known only to callers who may see that row, whoever queued it.
 * The server's own jobs, and jobs stored before callers were kept, are known to every caller (the
 * second check aside). A job the caller may not know of answers as an unknown one (404), whatever its state.
 */
export function jobVisibleTo(
  context: ResourceContext,
  queue: JobQueuePort,
  job: object,
  caller: Caller | undefined,
  rowRules: boolean,
): Maybe<boolean> {
  const owner = queue.ownerOf(job as never);
  if (owner !== undefined && (caller === undefined || owner.client !== caller.client || owner.user !== caller.user))
    return false;
  if (!rowRules) return true;
  const produced = queue.producedResource(job as never);
  const model =
    produced === undefined || !Object.hasOwn(context.catalog.collections, produced.collection)
      ? undefined
      : context.catalog.collections[produced.collection];
  if (produced === undefined || model?.rows?.see === undefined) return true;
  return andThen(
    rowsForCaller(context.catalog, model).reader(caller, context.store).find(model.table, produced.identity),
    (row) => row !== undefined,
  );
}
