import { answerWritten, requestBody, setJsonBody } from '../http/index.ts';
import { project, resultFields, stripNulls } from '../representation/index.ts';
import { setVersionBody } from '../responses/index.ts';
import type { Context } from 'koa';
import { runFlow, wait, type Flow, type Row } from '../storage/index.ts';
import { refusingQuery, type PathParams, type RouteHandler } from '../routing/index.ts';
import { flowHandler } from './collection-handlers.ts';
import { keyFromPath, resourceNotFound } from './identifiers.ts';
import type { AggregateModel, CollectionModel, VersionModel } from './model.ts';
import type { PreconditionCheck } from './preconditions.ts';
import { inDeclaredOrder } from './object-members.ts';
import { storedFields } from './represent.ts';
import type { ResourceContext } from './runtime-context.ts';
import { clearedFields, fromStored, parseWriteInput, toStored } from './write-input.ts';
import { withDeprecation } from '../versions/index.ts';
import { alwaysPresentMode, declaredDefaults } from './declared-defaults.ts';
import { authOf, callerOf } from '../auth/index.ts';
import { rowsForCaller } from './caller-rows.ts';
import { dataAccess } from './row-writes.ts';
import { hasWriteRules, runEffect, storedOf, valuesFromRules, withComputedFields } from './write-rules.ts';

export interface AggregateHandlers {
  readonly read: RouteHandler;
  readonly replace: RouteHandler;
  readonly update: RouteHandler;
}

/**
 * GET, PUT and PATCH of an aggregate at /{version}/{parent}/{parent_id}/{name}. The aggregate exists
 * as long as its parent does (each user has exactly one profile); before its first write it holds its
 * fields' declared defaults (none: an empty object).
 */
export function aggregateHandlers(
  context: ResourceContext,
  model: AggregateModel,
  versionName: string,
  {
    preconditions,
    lastModifiedKey = 'lastModified',
  }: { preconditions?: PreconditionCheck; lastModifiedKey?: string } = {},
): AggregateHandlers {
  const foundVersion = model.versions[versionName];
  const foundParent = context.catalog.collections[model.parent];
  if (foundVersion === undefined || foundParent === undefined)
    throw new Error(`${model.name}: no version ${versionName} or parent ${model.parent}`);
  const version: VersionModel = foundVersion;
  const parent: CollectionModel = foundParent;
  const names = version.fields.map((field) => field.name);
  const defaults = declaredDefaults(model.fields);

  const render = (row: Row | undefined, fields: readonly string[] | undefined) => {
    const stored =
      row === undefined
        ? defaults
        : storedFields(model, model.compute === undefined ? row : withComputedFields(model, row));
    const shaped = fromStored(version, stored);
    const representation = Object.fromEntries(
      version.fields.map((field) => [field.name, inDeclaredOrder(field, shaped[field.name])]),
    );
    return stripNulls(project(representation, fields));
  };

  // Row access: an aggregate is read and written through its parent row, as the caller may see and change it.
  const parentRows = rowsForCaller(context.catalog, parent);

  const parentKey = (params: Readonly<Record<string, string>>) => keyFromPath(parent, params[parent.identifier.name]);

  function* read(ctx: Context, params: PathParams): Flow<void> {
    const fields = resultFields(ctx, names);
    const key = parentKey(params);
    // A parent the caller may not see is a missing one: its aggregate answers the same 404.
    const parentRow = yield* wait(parentRows.reader(callerOf(ctx), context.store).find(parent.table, key));
    if (parentRow === undefined) throw resourceNotFound(parent, key);
    const row = yield* wait(context.store.find(model.table, key));
    ctx.state[lastModifiedKey] = String((row ?? parentRow).updated_at);
    // Fewer fields than the whole: the version's tag is made from the whole (responses/version-tag.ts).
    if (fields !== undefined) setVersionBody(ctx, render(row, undefined));
    setJsonBody(ctx, render(row, fields));
  }

  /** PUT replaces the aggregate whole; PATCH changes the fields it sends (see alwaysPresentMode). */
  const write = (method: 'replace' | 'update') =>
    function* writeFlow(ctx: Context, params: PathParams): Flow<void> {
      const fields = resultFields(ctx, names);
      const key = parentKey(params);
      const row = yield* wait(
        context.store.transaction((raw) =>
          runFlow(
            (function* () {
              const tx = parentRows.reader(callerOf(ctx), raw);
              // Reading the parent inside the transaction also serialises two first writes of its aggregate.
              const parentRow = yield* wait(tx.find(parent.table, key));
              if (parentRow === undefined) throw resourceNotFound(parent, key);
              // Writing an aggregate changes its parent: the parent's row access decides (403 row_not_changeable).
              parentRows.assertMayChange(callerOf(ctx), parentRow);
              const current = yield* wait(tx.find(model.table, key));
              if (preconditions !== undefined) yield* wait(preconditions(ctx, () => render(current, undefined)));
              const mode = alwaysPresentMode(method, current !== undefined);
              const input = parseWriteInput(requestBody(ctx), version, { mode, readOnly: {}, resource: model.name });
              const values = toStored(version, input);
              let stored = mode === 'update' ? values : { ...clearedFields(model), ...values };
              if (hasWriteRules(model)) {
                const caller = authOf(ctx);
                const facts = {
                  operation: method,
                  version: version.name,
                  input,
                  stored,
                  current: current === undefined ? undefined : storedOf(model, current),
                  key,
                };
                stored = {
                  ...stored,
                  ...(yield* valuesFromRules(model, facts, caller, dataAccess({ tx, context, caller, depth: 0 }))),
                };
              }
              const written = yield* wait(
                current === undefined
                  ? tx.insert(model.table, { ...stored, [model.table.key.name]: key })
                  : tx.update(model.table, key, stored),
              );
              if (model.effects?.[method] !== undefined) {
                const caller = authOf(ctx);
                yield* runEffect(model, method, written, key, caller, dataAccess({ tx, context, caller, depth: 0 }));
              }
              return written;
            })(),
          ),
        ),
      );
      ctx.state[lastModifiedKey] = String(row.updated_at);
      answerWritten(ctx, () => {
        // Tagged as a read is: from the whole, whatever X-Result-Fields presents (a 204 has no tag).
        if (fields !== undefined) setVersionBody(ctx, render(row, undefined));
        return render(row, fields);
      });
    };

  // An aggregate's operations take no query parameters.
  const served = (handler: RouteHandler) =>
    withDeprecation(refusingQuery(handler), version.deprecated, version.name, context.baseUrl);
  return {
    read: served(flowHandler(read)),
    replace: served(flowHandler(write('replace'))),
    update: served(flowHandler(write('update'))),
  };
}
