import { wait, type Flow, type Row, type StoreTransaction } from '../storage/index.ts';
import { keyOfAccess, resourceNotFound } from './identifiers.ts';
import type { CollectionModel, VersionModel } from './model.ts';
import type { ResourceContext } from './runtime-context.ts';
import { referencesTo } from './references.ts';
import { prepareDelete, prepareStoredValues } from './write-checks.ts';
import { clearedFields, parseWriteInput } from './write-input.ts';
import { checkDelete, hasWriteRules, runEffect, storedOf, valuesFromRules } from './write-rules.ts';
import type { Caller } from '../auth/index.ts';
import { everyRowOf, rowsForCaller } from './caller-rows.ts';

/**
 * One write's surroundings: its transaction, the server's context, who asked, and how deep inside
 * other writes' rules it runs (a rule's effect is a write with rules of its own).
 */
export interface WriteScope {
  readonly tx: StoreTransaction;
  readonly context: ResourceContext;
  /** Who asked: its row access holds for the data access (undefined: the server's own work, every row). */
  readonly caller: Caller | undefined;
  readonly depth: number;
}

/** A write's input: the version it was sent to, the validated body in that version's shape, and the stored values it maps to. */
export interface WriteInput {
  readonly version: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly stored: Readonly<Record<string, unknown>>;
}

/** How many writes deep effects may nest (a rule creating a row whose rule creates a row...). */
const MAX_DEPTH = 8;

/**
 * Inserts a row: references resolved (422) and unique values checked (409), then the collection's
 * create rule and computed fields, whose values are checked the same way; after the insert, its
 * create effect. `key` is the identifier a client chose (PUT that creates), absent where the server
 * assigns it.
 */
export function* insertRow(
  scope: WriteScope,
  model: CollectionModel,
  write: WriteInput,
  key?: string | number,
): Flow<Row> {
  let prepared = yield* prepareStoredValues(scope.tx, scope.context, model, write.stored, key);
  if (hasWriteRules(model)) {
    const added = yield* valuesFromRules(
      model,
      { operation: 'create', ...write, stored: prepared, current: undefined, key },
      scope.caller,
      dataAccess(scope),
    );
    prepared = { ...prepared, ...(yield* prepareStoredValues(scope.tx, scope.context, model, added, key)) };
  }
  const row = yield* wait(
    scope.tx.insert(model.table, key === undefined ? prepared : { ...prepared, [model.identifier.name]: key }),
  );
  if (model.effects?.create !== undefined)
    yield* runEffect(
      model,
      'create',
      row,
      row[model.identifier.name] as string | number,
      scope.caller,
      dataAccess(scope),
    );
  return row;
}

/** Replaces (PUT) or updates (PATCH) the row `current` with a validated write, its rules and computed fields included. */
export function* updateRow(
  scope: WriteScope,
  model: CollectionModel,
  current: Row,
  operation: 'replace' | 'update',
  write: WriteInput,
): Flow<Row> {
  const key = current[model.identifier.name] as string | number;
  const stored = operation === 'replace' ? { ...clearedFields(model), ...write.stored } : write.stored;
  let prepared = yield* prepareStoredValues(scope.tx, scope.context, model, stored, key);
  if (hasWriteRules(model)) {
    const facts = { operation, ...write, stored: prepared, current: storedOf(model, current), key };
    const added = yield* valuesFromRules(model, facts, scope.caller, dataAccess(scope));
    prepared = { ...prepared, ...(yield* prepareStoredValues(scope.tx, scope.context, model, added, key)) };
  }
  const row = yield* wait(scope.tx.update(model.table, key, prepared));
  if (model.effects?.[operation] !== undefined)
    yield* runEffect(model, operation, row, key, scope.caller, dataAccess(scope));
  return row;
}

/**
 * Deletes the row `current`: its delete rule; then the rows referring to it through a reference that
 * cascades are deleted and those through one that sets null emptied; then 409 while others still
 * refer to it; its aggregates go with it. `cascade`: what this delete's cascade has done so far, so
 * that a row referring back to one being deleted (or to itself) is not deleted twice.
 */
export function* removeRow(
  scope: WriteScope,
  model: CollectionModel,
  current: Row,
  cascade: Cascade = new Map(),
): Flow<void> {
  const key = current[model.identifier.name] as string | number;
  if (model.rules?.delete !== undefined) yield* checkDelete(model, current, key, scope.caller, dataAccess(scope));
  cascade.set(rowName(model, key), 'going');
  yield* releaseReferrers(scope, model, key, cascade);
  yield* prepareDelete(scope.tx, scope.context, model, key);
  yield* wait(scope.tx.remove(model.table, key));
  cascade.set(rowName(model, key), 'gone');
  if (model.effects?.delete !== undefined)
    yield* runEffect(model, 'delete', current, key, scope.caller, dataAccess(scope));
}

/** How many referring rows one statement reads at a time while a delete cascades. */
const REFERRERS_PER_READ = 200;

/**
 * Applies the declared `onDelete` of every reference to the row being deleted: each referring row is
 * deleted (`cascade`, through removeRow: its rule, its own referrers, its effects) or has the
 * reference emptied (`set-null`, through updateRow: its update rule and effects), in this
 * transaction. Every referring row, whoever asks: row access decides which rows a caller may delete,
 * not which rows a delete leaves pointing at nothing. Each pass reads the referrers still left, so
 * it ends when none is.
 */
function* releaseReferrers(
  scope: WriteScope,
  model: CollectionModel,
  key: string | number,
  cascade: Cascade,
): Flow<void> {
  for (const { holder, field } of referencesTo(scope.context.catalog, model)) {
    if (field.onDelete === undefined) continue;
    for (let offset = 0; ;) {
      const { rows } = yield* wait(
        scope.tx.list(holder.table, { where: { [field.name]: key }, limit: REFERRERS_PER_READ, offset }),
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        const state = cascade.get(rowName(holder, row[holder.identifier.name] as string | number));
        // Deleted meanwhile by a deeper cascade: no longer in the table, nor in the next read.
        if (state === 'gone') continue;
        // Being deleted further up (a cycle of cascades, or a row referring to itself): it stays in the table until then.
        if (state === 'going') offset += 1;
        else if (field.onDelete === 'cascade') yield* removeRow(scope, holder, row, cascade);
        else
          yield* updateRow(scope, holder, row, 'update', {
            version: 'stored',
            input: { [field.name]: null },
            stored: { [field.name]: null },
          });
      }
    }
  }
}

/** The rows one delete's cascade has reached: `going` while their own cascade runs, `gone` once removed. */
type Cascade = Map<string, 'going' | 'gone'>;

const rowName = (model: CollectionModel, key: string | number) => `${model.name}/${String(key)}`;

/**
 * The data a rule reads and writes (the DSL's DataAccess): every collection, each write validated
 * against the stored fields and checked by that collection's own rules, and the job queues, all in
 * the transaction of the write being checked. A collection is seen as the caller may see it unless
 * the rule asks for every row (`{ rows: 'all' }`).
 */
export function dataAccess(scope: WriteScope) {
  const inner: WriteScope = { ...scope, depth: scope.depth + 1 };
  return {
    of: (collection: string | { readonly name: string }, options: { readonly rows?: 'caller' | 'all' } = {}) =>
      collectionAccess(
        inner,
        collectionNamed(scope.context, typeof collection === 'string' ? collection : collection.name),
        options.rows ?? 'caller',
      ),
    *enqueue(queue: string, type: string, payload: Record<string, unknown>): Flow<{ readonly job_id: number }> {
      const jobs = scope.context.jobs;
      if (jobs === undefined) throw new Error(`no job queue runs beside this store: cannot queue ${type} in ${queue}`);
      return yield* wait(jobs.enqueueWithin(scope.tx, queue, type, payload, scope.caller));
    },
  };
}

/**
 * One collection through the data access: read, list, create, update, delete in the scope's
 * transaction. With `rows: 'caller'` and a caller, the collection's row access holds as on the
 * caller's own requests: a row it may not see reads as none, is neither listed nor counted, and is
 * 404 to update or delete; a write must leave a row it may change (403 row_not_changeable).
 */
export function collectionAccess(scope: WriteScope, model: CollectionModel, rows: 'caller' | 'all' = 'caller') {
  const everyRow = everyRowOf(scope.tx);
  const access = rows === 'all' || scope.caller === undefined ? undefined : rowsForCaller(scope.context.catalog, model);
  const caller = scope.caller;
  const tx = access === undefined ? everyRow : access.reader(caller, everyRow);
  const writes: WriteScope = { ...scope, tx };
  const deeper = (): WriteScope => {
    if (scope.depth > MAX_DEPTH)
      throw new Error(
        `rules' writes nest more than ${MAX_DEPTH} deep (at ${model.name}): a rule's effect triggers itself`,
      );
    return writes;
  };
  const mayChange = (row: Row): Row => {
    access?.assertMayChange(caller, row);
    return row;
  };
  const stored = storedVersionOf(model);
  const identity = model.identifier.name;
  function* existing(key: string | number): Flow<Row> {
    const current = yield* wait(tx.find(model.table, keyOfAccess(model, key)));
    if (current === undefined) throw resourceNotFound(model, key);
    return mayChange(current);
  }
  /** PATCH's write (`update`: the given fields) or PUT's (`replace`: those left out cleared) of an existing row. */
  function* change(key: string | number, values: Record<string, unknown>, mode: 'replace' | 'update'): Flow<Row> {
    const current = yield* existing(key);
    const checked = parseWriteInput(values, stored, {
      mode,
      readOnly: { [identity]: current[identity], created_at: current.created_at },
      resource: model.name,
    });
    return mayChange(
      yield* updateRow(deeper(), model, current, mode, { version: stored.name, input: checked, stored: checked }),
    );
  }
  return {
    *read(key: string | number): Flow<Row | undefined> {
      return yield* wait(tx.find(model.table, keyOfAccess(model, key)));
    },
    *get(key: string | number): Flow<Row> {
      const row = yield* wait(tx.find(model.table, keyOfAccess(model, key)));
      if (row === undefined) throw resourceNotFound(model, key);
      return row;
    },
    *list(query: { readonly where?: Record<string, unknown>; readonly limit?: number; readonly offset?: number } = {}) {
      const visible = access?.visible(caller);
      const page = {
        where: query.where ?? {},
        limit: query.limit ?? model.paging.defaultLimit,
        offset: query.offset ?? 0,
      };
      return yield* wait(tx.list(model.table, visible === undefined ? page : { ...page, visible }));
    },
    *create(values: Record<string, unknown>): Flow<Row> {
      // Where clients name resources, the server's own code names the new one too: in `values`.
      const { [identity]: chosen, ...rest } = values;
      const key = model.identifier.assignedBy === 'client' ? (chosen as string | number | undefined) : undefined;
      if (model.identifier.assignedBy === 'client' && key === undefined)
        throw new Error(`creating one of ${model.name} needs its ${identity}`);
      const checked = parseWriteInput(key === undefined ? values : rest, stored, {
        mode: 'create',
        readOnly: { [identity]: undefined, created_at: undefined },
        resource: model.name,
      });
      return mayChange(
        yield* insertRow(deeper(), model, { version: stored.name, input: checked, stored: checked }, key),
      );
    },
    update: (key: string | number, values: Record<string, unknown>) => change(key, values, 'update'),
    replace: (key: string | number, values: Record<string, unknown>) => change(key, values, 'replace'),
    *delete(key: string | number): Flow<void> {
      yield* removeRow(deeper(), model, yield* existing(key));
    },
  };
}

function collectionNamed(context: ResourceContext, name: string): CollectionModel {
  const model = Object.hasOwn(context.catalog.collections, name) ? context.catalog.collections[name] : undefined;
  if (model === undefined) throw new Error(`there is no collection ${name}`);
  return model;
}

// The stored fields as a version whose read-only fields the server's own code may write.
const storedVersions = new WeakMap<CollectionModel, VersionModel>();

function storedVersionOf(model: CollectionModel): VersionModel {
  let version = storedVersions.get(model);
  if (version === undefined) {
    version = {
      name: 'stored',
      fields: model.fields.map((field) => (field.readOnly === true ? { ...field, readOnly: false } : field)),
    };
    storedVersions.set(model, version);
  }
  return version;
}
