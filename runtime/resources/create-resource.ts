import { runFlow, wait, type Flow, type Row } from '../storage/index.ts';
import type { CollectionModel } from './model.ts';
import { insertRow } from './row-writes.ts';
import type { ResourceContext } from './runtime-context.ts';
import { readsBeforeWrite } from './write-checks.ts';
import { parseWriteInput, toStored } from './write-input.ts';
import { hasWriteRules, type WriteCaller } from './write-rules.ts';

/**
 * Creates one resource of a collection from a representation in `versionName`: validated as a POST
 * body is (400 naming the field), references resolved (422), unique fields checked (409), the
 * collection's create rule and computed fields applied, in one transaction. Shared by POST and by
 * jobs that produce a resource; `caller` is who asked (undefined for the server's own work).
 */
export function* createResource(context: ResourceContext, model: CollectionModel, versionName: string, body: unknown, caller?: WriteCaller): Flow<Row> {
  const version = model.versions[versionName];
  if (version === undefined) throw new Error(`${model.name} has no version ${versionName}`);
  const identity = model.identifier.name;
  const values = parseWriteInput(body, version, { mode: 'create', readOnly: { [identity]: undefined, created_at: undefined }, resource: model.name });
  const stored = toStored(version, values);
  // Nothing to read first (no reference, no unique value, no rule): the INSERT alone is the
  // transaction, where the store can run it so (PostgreSQL: no BEGIN and COMMIT round trips; BENCHMARKS.md).
  if (context.store.insertAlone !== undefined && !hasWriteRules(model) && !readsBeforeWrite(model, stored)) return yield* wait(context.store.insertAlone(model.table, stored));
  return yield* wait(context.store.transaction((tx) => runFlow(insertRow({ tx, context, caller, depth: 0 }, model, { version: versionName, input: values, stored }))));
}
