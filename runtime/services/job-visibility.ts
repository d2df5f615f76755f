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
 * May this caller know of this job? A job tells of the row it writes or produced (its identifier in
 * `result`, the 303 to it), so where that row's collection declares a row rule:
 * - an asynchronous operation's job is seen only by the caller (client and user) whose request queued it;
 * - a finished job that produced a row is seen only by callers who may see that row.
 * A job the caller may not know of answers as an unknown one (404), whatever its state.
 */
export function jobVisibleTo(
  context: ResourceContext,
  queue: JobQueuePort,
  job: object,
  caller: Caller | undefined,
): Maybe<boolean> {
  const collectionNamed = (collection: string) =>
    Object.hasOwn(context.catalog.collections, collection) ? context.catalog.collections[collection] : undefined;
  const written = queue.writtenAs(job as never);
  if (written !== undefined && collectionNamed(written.collection)?.rows?.see !== undefined) {
    if (caller === undefined || written.caller?.client !== caller.client || written.caller.user !== caller.user)
      return false;
  }
  const produced = queue.producedResource(job as never);
  const model = produced === undefined ? undefined : collectionNamed(produced.collection);
  if (produced === undefined || model?.rows?.see === undefined) return true;
  return andThen(
    rowsForCaller(context.catalog, model).reader(caller, context.store).find(model.table, produced.identity),
    (row) => row !== undefined,
  );
}
