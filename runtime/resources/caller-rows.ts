import type { Caller } from '../auth/index.ts';
import { forbidden } from '../errors/index.ts';
import type {
  ListQuery,
  ListResult,
  Maybe,
  Row,
  RowCondition,
  StoreReader,
  StoreTransaction,
  TableSpec,
} from '../storage/index.ts';
import type { Catalog, CollectionModel } from './model.ts';
import { rowCondition, rowMatches, type RowRuleModel } from './row-access.ts';

/** The `see` rule of each table of a catalog that declares one, found once per catalog. */
const seeRules = new WeakMap<Catalog, ReadonlyMap<TableSpec, RowRuleModel>>();

function seeRulesOf(catalog: Catalog): ReadonlyMap<TableSpec, RowRuleModel> {
  let rules = seeRules.get(catalog);
  if (rules === undefined) {
    rules = new Map(
      Object.values(catalog.collections).flatMap((model) =>
        model.rows?.see === undefined ? [] : [[model.table, model.rows.see] as const],
      ),
    );
    seeRules.set(catalog, rules);
  }
  return rules;
}

/**
 * A reader (or a transaction) as one caller may use it: `find` answers only rows the caller may see
 * in tables that declare a row rule, as if the others did not exist. That is the read that reveals a
 * row by its key: GET one, a reference inlined by X-Expansion-Fields, a reference written in a body,
 * the row a PUT, PATCH or DELETE finds first. Lists and searches take the condition explicitly
 * (ListQuery.visible), since a unique check lists every row whoever asks.
 */
class CallerRows implements StoreTransaction {
  readonly #inner: StoreTransaction;
  readonly #rules: ReadonlyMap<TableSpec, RowRuleModel>;
  readonly #caller: Caller | undefined;

  /** The reader this one restricts: what the server itself reads. */
  get inner(): StoreTransaction {
    return this.#inner;
  }

  constructor(inner: StoreReader, rules: ReadonlyMap<TableSpec, RowRuleModel>, caller: Caller | undefined) {
    this.#inner = inner as StoreTransaction;
    this.#rules = rules;
    this.#caller = caller;
  }

  find(table: TableSpec, key: unknown, visible?: RowCondition): Maybe<Row | undefined> {
    const rule = this.#rules.get(table);
    if (rule === undefined || visible !== undefined) return this.#inner.find(table, key, visible);
    return this.#inner.find(table, key, rowCondition(rule, this.#caller));
  }

  list(table: TableSpec, query: ListQuery): Maybe<ListResult> {
    return this.#inner.list(table, query);
  }

  countWhere(table: TableSpec, column: string, value: unknown): Maybe<number> {
    return this.#inner.countWhere(table, column, value);
  }

  search(
    table: TableSpec,
    text: string,
    limit: number,
    offset: number,
    visible?: RowCondition,
  ): Maybe<{ keys: unknown[]; total: number }> {
    return this.#inner.search(table, text, limit, offset, visible);
  }

  insert(table: TableSpec, values: Row): Maybe<Row> {
    return this.#inner.insert(table, values);
  }

  update(table: TableSpec, key: unknown, values: Row): Maybe<Row> {
    return this.#inner.update(table, key, values);
  }

  remove(table: TableSpec, key: unknown): Maybe<void> {
    return this.#inner.remove(table, key);
  }

  reindex(table: TableSpec): Maybe<number> {
    return this.#inner.reindex(table);
  }
}

/** The reader (or transaction) without any caller's row access: every row, as the server itself reads. */
export function everyRowOf<T extends StoreReader>(reader: T): T {
  return reader instanceof CallerRows ? (reader.inner as unknown as T) : reader;
}

/**
 * Row access for the handlers of one collection, decided once when they are made. Where neither the
 * collection nor any collection it refers to declares a row rule, every method hands back what it is
 * given: the request path is the one without row access, the same statements, nothing added.
 * `caller` is who asks: a request's `callerOf(ctx)`, or the caller an asynchronous operation's job
 * carries (undefined: a request without a credential, which sees no row a rule guards).
 */
export interface RowsForCaller {
  /** False when nothing here declares a row rule: then `reader` hands back the reader it is given. */
  readonly guarded: boolean;
  /** The condition a read of this collection adds for this caller (undefined: every row). */
  visible(caller: Caller | undefined): RowCondition | undefined;
  /** The store, or a transaction, as this caller may read it (see CallerRows). */
  reader<T extends StoreReader>(caller: Caller | undefined, reader: T): T;
  /** 403 row_not_changeable unless the caller may change this row (the collection's `change` rule, on top of `see`). */
  assertMayChange(caller: Caller | undefined, row: Row): void;
}

const EVERY_ROW: RowsForCaller = {
  guarded: false,
  visible: () => undefined,
  reader: (_caller, reader) => reader,
  assertMayChange: () => undefined,
};

export function rowsForCaller(catalog: Catalog, model: CollectionModel): RowsForCaller {
  const rules = seeRulesOf(catalog);
  const referred = model.fields.some(
    (field) => field.references !== undefined && catalog.collections[field.references]?.rows?.see !== undefined,
  );
  if (model.rows === undefined && !referred) return EVERY_ROW;
  const see = model.rows?.see;
  const change = model.rows?.change;
  return {
    guarded: true,
    visible: (caller) => (see === undefined ? undefined : rowCondition(see, caller)),
    reader: <T extends StoreReader>(caller: Caller | undefined, reader: T) =>
      new CallerRows(reader, rules, caller) as unknown as T,
    assertMayChange: (caller, row) => {
      if (
        (see !== undefined && !rowMatches(see, caller, row)) ||
        (change !== undefined && !rowMatches(change, caller, row))
      ) {
        throw forbidden(
          'row_not_changeable',
          `this ${model.singular} may not be changed by this caller, or not so: its row rule refuses it`,
          { resource: model.name },
        );
      }
    },
  };
}
