import { runFlow, wait, type Flow, type Maybe, type Row, type StoreTransaction } from '../storage/index.ts';
import { resourceNotFound } from './identifiers.ts';
import type { CollectionModel } from './model.ts';
import { removeRow, updateRow } from './row-writes.ts';
import type { ResourceContext } from './runtime-context.ts';
import { parseWriteInput, toStored, type WriteMode } from './write-input.ts';
import type { WriteCaller } from './write-rules.ts';

/** Runs inside the write's transaction before anything changes (If-Match): throws to refuse. */
export type BeforeChange = (tx: StoreTransaction, current: Row) => Maybe<void> | undefined;

/**
 * Replaces (PUT) or updates (PATCH) the existing row `current` from a representation in
 * `versionName`, validated as the request body is (400), references (422) and unique fields (409)
 * checked, the collection's rule and computed fields applied, inside the caller's transaction.
 * Shared by the PUT/PATCH handlers and asynchronous jobs.
 */
export function* changeRow(
  tx: StoreTransaction,
  context: ResourceContext,
  model: CollectionModel,
  versionName: string,
  current: Row,
  body: unknown,
  mode: Exclude<WriteMode, 'create'>,
  caller?: WriteCaller,
): Flow<Row> {
  const version = model.versions[versionName];
  if (version === undefined) throw new Error(`${model.name} has no version ${versionName}`);
  const identity = model.identifier.name;
  const key = current[identity] as string | number;
  const values = parseWriteInput(body, version, { mode, readOnly: { [identity]: key, created_at: current.created_at }, resource: model.name });
  return yield* updateRow({ tx, context, caller, depth: 0 }, model, current, mode, { version: versionName, input: values, stored: toStored(version, values) });
}

/** The row at `key` inside `tx` (404 when there is none), once `before` has let the write go on. */
function* existingRow(tx: StoreTransaction, model: CollectionModel, key: string | number, before?: BeforeChange): Flow<Row> {
  const current = yield* wait(tx.find(model.table, key));
  if (current === undefined) throw resourceNotFound(model, key);
  if (before !== undefined) yield* wait(before(tx, current));
  return current;
}

/** changeRow() in a transaction of its own, for the row at `key` (404 when there is none). */
export function* changeResource(
  context: ResourceContext,
  model: CollectionModel,
  versionName: string,
  key: string | number,
  body: unknown,
  mode: Exclude<WriteMode, 'create'>,
  before?: BeforeChange,
  caller?: WriteCaller,
): Flow<Row> {
  return yield* wait(
    context.store.transaction((tx) =>
      runFlow(
        (function* () {
          const current = yield* existingRow(tx, model, key, before);
          return yield* changeRow(tx, context, model, versionName, current, body, mode, caller);
        })(),
      ),
    ),
  );
}

/**
 * Deletes the row at `key` (404 when there is none; 409 while another resource refers to it), its
 * delete rule first. `asCaller` gives the transaction as the caller may read it (row access): a row
 * it may not see is none.
 */
export function* deleteResource(context: ResourceContext, model: CollectionModel, key: string | number, before?: BeforeChange, caller?: WriteCaller, asCaller: (tx: StoreTransaction) => StoreTransaction = (tx) => tx): Flow<void> {
  yield* wait(
    context.store.transaction((raw) =>
      runFlow(
        (function* () {
          const tx = asCaller(raw);
          yield* removeRow({ tx, context, caller, depth: 0 }, model, yield* existingRow(tx, model, key, before));
        })(),
      ),
    ),
  );
}
