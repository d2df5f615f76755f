import { runFlow, wait, type Flow, type Row } from '../storage/index.ts';
import type { CollectionModel } from './model.ts';
import type { ResourceContext } from './runtime-context.ts';
import { prepareStoredValues, readsBeforeWrite } from './write-checks.ts';
import { parseWriteInput, toStored } from './write-input.ts';

/**
 * Creates one resource of a collection from a representation in `versionName`: validated as a POST
 * body is (400 naming the field), references resolved (422), unique fields checked (409), in one
 * transaction. Shared by POST and by jobs that produce a resource.
 */
export function* createResource(context: ResourceContext, model: CollectionModel, versionName: string, body: unknown): Flow<Row> {
  const version = model.versions[versionName];
  if (version === undefined) throw new Error(`${model.name} has no version ${versionName}`);
  const identity = model.identifier.name;
  const values = parseWriteInput(body, version, { mode: 'create', readOnly: { [identity]: undefined, created_at: undefined }, resource: model.name });
  const stored = toStored(version, values);
  // Nothing to read first (no reference, no unique value): the INSERT alone is the transaction, where
  // the store can run it so (PostgreSQL: no BEGIN and COMMIT round trips; BENCHMARKS.md).
  if (context.store.insertAlone !== undefined && !readsBeforeWrite(model, stored)) return yield* wait(context.store.insertAlone(model.table, stored));
  return yield* wait(
    context.store.transaction((tx) =>
      runFlow(
        (function* () {
          const prepared = yield* prepareStoredValues(tx, context, model, stored, undefined);
          return yield* wait(tx.insert(model.table, prepared));
        })(),
      ),
    ),
  );
}
