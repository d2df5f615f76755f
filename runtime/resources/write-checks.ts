import { conflict } from '../errors/index.ts';
import { wait, type Flow, type StoreTransaction } from '../storage/index.ts';
import type { CollectionModel } from './model.ts';
import { assertReferenceExists, referencedId, referencesTo } from './references.ts';
import type { ResourceContext } from './runtime-context.ts';

/**
 * Turns written references (URI or id) into stored ids and checks that each target exists (422),
 * then checks unique fields (409), all inside the write's transaction. (PostgreSQL's unique indexes
 * answer a race between two such checks: the store reports the loser's duplicate as the same 409.)
 */
export function* prepareStoredValues(
  tx: StoreTransaction,
  context: ResourceContext,
  model: CollectionModel,
  stored: Record<string, unknown>,
  selfKey: unknown,
): Flow<Record<string, unknown>> {
  const prepared = { ...stored };
  for (const field of model.fields) {
    const value = prepared[field.name];
    if (value === undefined || value === null) continue;
    if (isCheckedReference(field)) {
      const target = context.catalog.collections[field.references!];
      if (target === undefined) continue;
      const id = referencedId(target, value, field.name, context.baseUrl);
      yield* assertReferenceExists(tx, target, id, field.name);
      prepared[field.name] = id;
    }
    if (field.unique) {
      const { rows } = yield* wait(
        tx.list(model.table, { where: { [field.name]: prepared[field.name] }, limit: 2, offset: 0 }),
      );
      if (rows.some((row) => row[model.identifier.name] !== selfKey)) {
        throw conflict('duplicate_value', `another ${model.singular} already has ${field.name} "${String(value)}"`, {
          field: field.name,
          resource: model.name,
        });
      }
    }
  }
  return prepared;
}

/**
 * Whether prepareStoredValues() reads the store for these values: a reference to resolve or a unique
 * value to check. When it does not, the write that follows is the transaction's only statement.
 */
export function readsBeforeWrite(model: CollectionModel, stored: Record<string, unknown>): boolean {
  return model.fields.some(
    (field) =>
      stored[field.name] !== undefined && stored[field.name] !== null && (isCheckedReference(field) || field.unique),
  );
}

const isCheckedReference = (field: CollectionModel['fields'][number]) =>
  field.kind === 'reference' && field.references !== undefined;

/**
 * 409 when other resources still refer to the one being deleted through a reference that restricts
 * (the default; the cascading ones are dealt with first, see removeRow); its aggregates go with it.
 */
export function* prepareDelete(
  tx: StoreTransaction,
  context: ResourceContext,
  model: CollectionModel,
  key: unknown,
): Flow<void> {
  for (const { holder, field } of referencesTo(context.catalog, model)) {
    if (field.onDelete !== undefined) continue;
    const count = yield* wait(tx.countWhere(holder.table, field.name, key));
    if (count > 0) {
      throw conflict(
        'resource_in_use',
        `${count} of ${holder.name} still refer to this ${model.singular} through ${field.name}`,
        {
          resource: holder.name,
          field: field.name,
        },
      );
    }
  }
  for (const aggregate of context.catalog.aggregates) {
    if (aggregate.parent === model.name && (yield* wait(tx.find(aggregate.table, key))) !== undefined)
      yield* wait(tx.remove(aggregate.table, key));
  }
}
