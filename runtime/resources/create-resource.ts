import type { Caller } from '../auth/index.ts';
import { runFlow, wait, type Flow, type Row } from '../storage/index.ts';
import type { RowsForCaller } from './caller-rows.ts';
import type { CollectionModel } from './model.ts';
import { insertRow } from './row-writes.ts';
import type { ResourceContext } from './runtime-context.ts';
import { readsBeforeWrite } from './write-checks.ts';
import { parseWriteInput, toStored } from './write-input.ts';
import { hasWriteRules } from './write-rules.ts';

/**
 * Creates one resource of a collection from a representation in `versionName`: validated as a POST
 * body is (400 naming the field), references resolved (422), unique fields checked (409), the
 * collection's create rule and computed fields applied, in one transaction. Shared by POST and by
 * jobs that produce a resource; `caller` is who asked (undefined for the server's own work), and
 * `rows` the collection's row access, which holds for that caller when it guards anything.
 */
export function* createResource(
  context: ResourceContext,
  model: CollectionModel,
  versionName: string,
  body: unknown,
  caller?: Caller,
  rows?: RowsForCaller,
): Flow<Row> {
  const version = model.versions[versionName];
  if (version === undefined) throw new Error(`${model.name} has no version ${versionName}`);
  const identity = model.identifier.name;
  const values = parseWriteInput(body, version, {
    mode: 'create',
    readOnly: { [identity]: undefined, created_at: undefined },
    resource: model.name,
  });
  const stored = toStored(version, values);
  // Row access: the new row must be one the caller may change, and its references name rows it may see.
  const guarded = rows?.guarded === true;
  if (guarded) rows.assertMayChange(caller, stored);
  // Nothing to read first (no reference, no unique value, no rule, no row access): the INSERT alone is the
  // transaction, where the store can run it so (PostgreSQL: no BEGIN and COMMIT round trips; BENCHMARKS.md).
  if (!guarded && context.store.insertAlone !== undefined && !hasWriteRules(model) && !readsBeforeWrite(model, stored))
    return yield* wait(context.store.insertAlone(model.table, stored));
  return yield* wait(
    context.store.transaction((raw) => {
      const tx = guarded ? rows.reader(caller, raw) : raw;
      return runFlow(
        insertRow({ tx, context, caller, depth: 0 }, model, { version: versionName, input: values, stored }),
      );
    }),
  );
}
