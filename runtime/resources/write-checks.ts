import { conflict } from '../errors/index.ts';
import { andThen, wait, type Flow, type StoreTransaction } from '../storage/index.ts';
import type { CollectionModel } from './model.ts';
import { assertReferenceExists, referencedId, referencedIds, referencesTo } from './references.ts';
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
      if (field.kind === 'array') {
        prepared[field.name] = yield* referencedIds(tx, target, field, value as readonly unknown[], context.baseUrl);
        continue;
      }
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

// A reference, or an array of references: the only fields that carry `references`.
const isCheckedReference = (field: CollectionModel['fields'][number]) => field.references !== undefined;

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
    const count = yield* wait(
      field.kind === 'array'
        ? countHolding(tx, holder, field.name, key as string | number)
        : tx.countWhere(holder.table, field.name, key),
    );
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

/**
 * How many rows hold `key` in the array `column`: the list's containment condition, counted (its one
 * row read is the price of not adding a statement to both stores). PostgreSQL answers it from the
 * column's GIN index; SQLite reads each row's items.
 */
function countHolding(tx: StoreTransaction, holder: CollectionModel, column: string, key: string | number) {
  return andThen(
    tx.list(holder.table, { where: {}, contains: [{ column, value: key }], limit: 1, offset: 0 }),
    ({ total }) => total,
  );
}
