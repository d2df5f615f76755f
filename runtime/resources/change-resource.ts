import { runFlow, wait, type Flow, type Maybe, type Row, type StoreTransaction } from '../storage/index.ts';
import { resourceNotFound } from './identifiers.ts';
import type { CollectionModel } from './model.ts';
import { removeRow, updateRow } from './row-writes.ts';
import type { ResourceContext } from './runtime-context.ts';
import { parseWriteInput, toStored, type WriteMode } from './write-input.ts';
import type { Caller } from '../auth/index.ts';
import type { RowsForCaller } from './caller-rows.ts';

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
  caller?: Caller,
): Flow<Row> {
  const version = model.versions[versionName];
  if (version === undefined) throw new Error(`${model.name} has no version ${versionName}`);
  const identity = model.identifier.name;
  const key = current[identity] as string | number;
  const values = parseWriteInput(body, version, {
    mode,
    readOnly: { [identity]: key, created_at: current.created_at },
    resource: model.name,
  });
  return yield* updateRow({ tx, context, caller, depth: 0 }, model, current, mode, {
    version: versionName,
    input: values,
    stored: toStored(version, values),
  });
}

/** The row at `key` inside `tx` (404 when there is none), once `before` has let the write go on. */
function* existingRow(
  tx: StoreTransaction,
  model: CollectionModel,
  key: string | number,
  before?: BeforeChange,
): Flow<Row> {
  const current = yield* wait(tx.find(model.table, key));
  if (current === undefined) throw resourceNotFound(model, key);
  if (before !== undefined) yield* wait(before(tx, current));
  return current;
}

/**
 * The transaction as `caller` may use it under the collection's row access: a row it may not see is
 * none (404), and one it may not change is refused (403) before the write and after it.
 */
export interface AsCaller {
  readonly caller: Caller | undefined;
  readonly rows: RowsForCaller;
}

/** changeRow() in a transaction of its own, for the row at `key` (404 when there is none, or when `asCaller` may not see it). */
export function* changeResource(
  context: ResourceContext,
  model: CollectionModel,
  versionName: string,
  key: string | number,
  body: unknown,
  mode: Exclude<WriteMode, 'create'>,
  before?: BeforeChange,
  asCaller?: AsCaller,
): Flow<Row> {
  return yield* wait(
    context.store.transaction((raw) =>
      runFlow(
        (function* () {
          const tx = asCaller === undefined ? raw : asCaller.rows.reader(asCaller.caller, raw);
          const current = yield* existingRow(tx, model, key, before);
          asCaller?.rows.assertMayChange(asCaller.caller, current);
          const changed = yield* changeRow(tx, context, model, versionName, current, body, mode, asCaller?.caller);
          asCaller?.rows.assertMayChange(asCaller.caller, changed);
          return changed;
        })(),
      ),
    ),
  );
}

/**
 * Deletes the row at `key` (404 when there is none; 409 while another resource refers to it), its
 * delete rule first. With `asCaller`, the transaction is read as that caller may read it (row access:
 * a row it may not see is none) and a row it may not change is refused.
 */
export function* deleteResource(
  context: ResourceContext,
  model: CollectionModel,
  key: string | number,
  before?: BeforeChange,
  asCaller?: AsCaller,
): Flow<void> {
  yield* wait(
    context.store.transaction((raw) =>
      runFlow(
        (function* () {
          const tx = asCaller === undefined ? raw : asCaller.rows.reader(asCaller.caller, raw);
          const current = yield* existingRow(tx, model, key, before);
          asCaller?.rows.assertMayChange(asCaller.caller, current);
          yield* removeRow({ tx, context, caller: asCaller?.caller, depth: 0 }, model, current);
        })(),
      ),
    ),
  );
}
