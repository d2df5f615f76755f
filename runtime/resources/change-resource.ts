import type { Row, StoreTransaction } from '../storage/index.ts';
import { resourceNotFound } from './identifiers.ts';
import type { CollectionModel } from './model.ts';
import type { ResourceContext } from './runtime-context.ts';
import { prepareDelete, prepareStoredValues } from './write-checks.ts';
import { clearedFields, parseWriteInput, toStored, type WriteMode } from './write-input.ts';

/** Runs inside the write's transaction before anything changes (If-Match): throws to refuse. */
export type BeforeChange = (tx: StoreTransaction, current: Row) => void;

/**
 * Replaces (PUT) or updates (PATCH) the existing row `current` from a representation in
 * `versionName`, validated as the request body is (400), references (422) and unique fields (409)
 * checked, inside the caller's transaction. Shared by the PUT/PATCH handlers and asynchronous jobs.
 */
export function changeRow(tx: StoreTransaction, context: ResourceContext, model: CollectionModel, versionName: string, current: Row, body: unknown, mode: WriteMode): Row {
  const version = model.versions[versionName];
  if (version === undefined) throw new Error(`${model.name} has no version ${versionName}`);
  const identity = model.identifier.name;
  const key = current[identity] as string | number;
  const values = parseWriteInput(body, version, { mode, readOnly: { [identity]: key, created_at: current.created_at }, resource: model.name });
  const stored = mode === 'replace' ? { ...clearedFields(model), ...toStored(version, values) } : toStored(version, values);
  return tx.update(model.table, key, prepareStoredValues(tx, context, model, stored, key));
}

/** changeRow() in a transaction of its own, for the row at `key` (404 when there is none). */
export function changeResource(context: ResourceContext, model: CollectionModel, versionName: string, key: string | number, body: unknown, mode: WriteMode, before?: BeforeChange): Row {
  return context.store.transaction((tx) => {
    const current = tx.find(model.table, key);
    if (current === undefined) throw resourceNotFound(model, key);
    before?.(tx, current);
    return changeRow(tx, context, model, versionName, current, body, mode);
  });
}

/** Deletes the row at `key` (404 when there is none; 409 while another resource refers to it). */
export function deleteResource(context: ResourceContext, model: CollectionModel, key: string | number, before?: BeforeChange): void {
  context.store.transaction((tx) => {
    const current = tx.find(model.table, key);
    if (current === undefined) throw resourceNotFound(model, key);
    before?.(tx, current);
    prepareDelete(tx, context, model, key);
    tx.remove(model.table, key);
  });
}
