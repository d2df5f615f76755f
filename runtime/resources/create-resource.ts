import type { Context } from 'koa';
import { runFlow, wait, type Flow, type Row } from '../storage/index.ts';
import type { RowsForCaller } from './caller-rows.ts';
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
export function* createResource(context: ResourceContext, model: CollectionModel, versionName: string, body: unknown, caller?: WriteCaller, asCaller?: { readonly rows: RowsForCaller; readonly ctx: Context }): Flow<Row> {
  const version = model.versions[versionName];
  if (version === undefined) throw new Error(`${model.name} has no version ${versionName}`);
  const identity = model.identifier.name;
  const values = parseWriteInput(body, version, { mode: 'create', readOnly: { [identity]: undefined, created_at: undefined }, resource: model.name });
  const stored = toStored(version, values);
  // Row access: the new row must be one the caller may change, and its references name rows it may see.
  asCaller?.rows.assertMayChange(asCaller.ctx, stored);
  // Nothing to read first (no reference, no unique value, no rule, no row access): the INSERT alone is the
  // transaction, where the store can run it so (PostgreSQL: no BEGIN and COMMIT round trips; BENCHMARKS.md).
  if (asCaller === undefined && context.store.insertAlone !== undefined && !hasWriteRules(model) && !readsBeforeWrite(model, stored)) return yield* wait(context.store.insertAlone(model.table, stored));
  return yield* wait(
    context.store.transaction((raw) => {
      const tx = asCaller === undefined ? raw : asCaller.rows.reader(asCaller.ctx, raw);
      return runFlow(insertRow({ tx, context, caller, depth: 0 }, model, { version: versionName, input: values, stored }));
    }),
  );
}
