import type { Context } from 'koa';
import { badRequest, repeatedParameter } from '../errors/index.ts';
import type { CollectionModel, FieldModel, VersionModel } from './model.ts';
import type { ResourceContext } from './runtime-context.ts';
import { referencedId } from './references.ts';
import { rememberRecent } from '../caching/recent-results.ts';
import type { ContainsCondition, RangeCondition, RangeOperator, SortKey } from '../storage/index.ts';

/** The paging parameters of every list: `limit` (1..maxLimit, default defaultLimit) and `offset` (0..). */
export const PAGING_PARAMETERS = ['limit', 'offset'] as const;

/** The parameter that orders a list: `sort=-scheduled_at,pet_name` (a leading `-` sorts descending). */
export const SORT_PARAMETER = 'sort';

/** The comparisons a filterable integer, number or time field takes, as `{field}.{operator}=value`. */
export const RANGE_OPERATORS: readonly RangeOperator[] = ['gt', 'gte', 'lt', 'lte'];

/** The filter a filterable array takes: `{field}.contains=item`, the rows whose array holds that item. */
export const CONTAINS_OPERATOR = 'contains';

export interface ListRequest {
  readonly where: Record<string, unknown>;
  /** Absent when the query compares nothing. */
  readonly ranges?: readonly RangeCondition[];
  /** Absent when the query names no array's item. */
  readonly contains?: readonly ContainsCondition[];
  /** Absent when the query does not sort: by the identifier. */
  readonly order?: readonly SortKey[];
  readonly limit: number;
  readonly offset: number;
}

/**
 * Reads a list request's query string: filters on the fields the collection declares filterable
 * (equality, comparisons on integers, numbers and times, an item of an array), the order (`sort`, on sortable fields
 * and the identifier) and paging. Anything else, or a value out of bounds, gets 400 naming the
 * parameter.
 */
export function parseListQuery(
  ctx: Context,
  model: CollectionModel,
  version: VersionModel,
  context: ResourceContext,
): ListRequest {
  return recentParserFor(context, model, version)(ctx.querystring);
}

/** Per API context and version (a model's versions are its own objects): the query strings parsed last, remembered. */
const recentParsers = new WeakMap<ResourceContext, WeakMap<VersionModel, (query: string) => ListRequest>>();

function recentParserFor(
  context: ResourceContext,
  model: CollectionModel,
  version: VersionModel,
): (query: string) => ListRequest {
  let byVersion = recentParsers.get(context);
  if (byVersion === undefined) {
    byVersion = new WeakMap();
    recentParsers.set(context, byVersion);
  }
  let parser = byVersion.get(version);
  if (parser === undefined) {
    const served = new Set(version.fields.map((field) => field.name));
    const filtered = model.fields.filter((field) => field.filterable && served.has(field.name));
    // An array is filtered by one of its items (`allergies.contains=`), never compared whole.
    const filterable = new Map(filtered.filter((field) => field.kind !== 'array').map((field) => [field.name, field]));
    const containing = new Map(
      filtered.flatMap((field) =>
        field.kind === 'array' && field.items !== undefined
          ? [[`${field.name}.${CONTAINS_OPERATOR}`, { ...field.items, name: field.name }] as const]
          : [],
      ),
    );
    const comparable = new Map([...filterable].filter(([, field]) => COMPARABLE_KINDS.has(field.kind)));
    const sortable = [
      model.identifier.name,
      ...model.fields.filter((field) => field.sortable === true && served.has(field.name)).map((field) => field.name),
    ];
    const names: QueryNames = { filterable, comparable, containing, sortable: new Set(sortable) };
    // A list request's query is a pure function of its text: a bad one throws and is not remembered.
    parser = rememberRecent((query: string) => parseQueryText(query, model, context, names));
    byVersion.set(version, parser);
  }
  return parser;
}

/** The kinds a comparison filter takes: those whose stored order is their order (times are stored as UTC text of one width). */
const COMPARABLE_KINDS: ReadonlySet<FieldModel['kind']> = new Set(['integer', 'number', 'time']);

/** What a version's list query may name. */
interface QueryNames {
  readonly filterable: ReadonlyMap<string, FieldModel>;
  readonly comparable: ReadonlyMap<string, FieldModel>;
  /** By parameter (`allergies.contains`): the array's item field, named as the array. */
  readonly containing: ReadonlyMap<string, FieldModel>;
  readonly sortable: ReadonlySet<string>;
}

function parseQueryText(
  query: string,
  model: CollectionModel,
  context: ResourceContext,
  names: QueryNames,
): ListRequest {
  const where: Record<string, unknown> = {};
  const ranges: RangeCondition[] = [];
  const contains: ContainsCondition[] = [];
  let order: SortKey[] | undefined;
  let limit = model.paging.defaultLimit;
  let offset = 0;
  const seen = new Set<string>();
  for (const [name, raw] of new URLSearchParams(query)) {
    if (name === 'limit') limit = boundedInteger(name, raw, 1, model.paging.maxLimit);
    else if (name === 'offset') offset = boundedInteger(name, raw, 0, Number.MAX_SAFE_INTEGER);
    else if (seen.has(name)) throw repeatedParameter(name);
    else if (name === SORT_PARAMETER) {
      seen.add(name);
      order = sortKeys(raw, model, names.sortable);
    } else {
      seen.add(name);
      const field = names.filterable.get(name);
      const range = field === undefined ? rangeOf(name, names.comparable) : undefined;
      const item = names.containing.get(name);
      if (item !== undefined)
        contains.push({
          column: item.name,
          value: filterValue(item, raw, context, name) as ContainsCondition['value'],
        });
      else if (range !== undefined)
        ranges.push({
          column: range.field.name,
          operator: range.operator,
          value: filterValue(range.field, raw, context, name),
        });
      else if (field !== undefined) where[name] = filterValue(field, raw, context, name);
      else throw unknownParameter(name, model, names);
    }
  }
  // Shared by every request with the same query text: nobody may change it.
  return Object.freeze({
    where: Object.freeze(where),
    ...(ranges.length > 0 ? { ranges: Object.freeze(ranges) } : {}),
    ...(contains.length > 0 ? { contains: Object.freeze(contains) } : {}),
    ...(order === undefined ? {} : { order: Object.freeze(order) }),
    limit,
    offset,
  });
}

/** `fee.gte` → the field fee and the operator gte, when fee takes comparisons. */
function rangeOf(
  name: string,
  comparable: ReadonlyMap<string, FieldModel>,
): { field: FieldModel; operator: RangeOperator } | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const field = comparable.get(name.slice(0, dot));
  const operator = name.slice(dot + 1) as RangeOperator;
  return field !== undefined && RANGE_OPERATORS.includes(operator) ? { field, operator } : undefined;
}

function unknownParameter(name: string, model: CollectionModel, names: QueryNames) {
  const comparisons = [...names.comparable.keys()].map((field) => `${field}.${RANGE_OPERATORS.join(`|${field}.`)}`);
  const known = [
    ...names.filterable.keys(),
    ...comparisons,
    ...names.containing.keys(),
    SORT_PARAMETER,
    ...PAGING_PARAMETERS,
  ].join(', ');
  return badRequest('unknown_parameter', `${name} is not a filter of ${model.name}; use one of ${known}`, {
    field: name,
  });
}

/** `-scheduled_at,pet_name` → the sort keys, or 400 invalid_sort naming the first name that cannot be sorted by. */
function sortKeys(raw: string, model: CollectionModel, sortable: ReadonlySet<string>): SortKey[] {
  const keys: SortKey[] = [];
  for (const part of raw.split(',')) {
    const descending = part.startsWith('-');
    const column = descending ? part.slice(1) : part;
    if (!sortable.has(column)) {
      const what = column === '' ? 'an empty name' : `"${column}" is not a sortable field of ${model.name}`;
      throw badRequest(
        'invalid_sort',
        `sort: ${what}; sort by ${[...sortable].join(', ')} (a leading - for descending, commas between)`,
        { field: SORT_PARAMETER },
      );
    }
    if (keys.some((key) => key.column === column))
      throw badRequest('invalid_sort', `sort: "${column}" is named more than once`, { field: SORT_PARAMETER });
    keys.push({ column, descending });
  }
  return keys;
}

/** A whole-number query parameter within bounds, or 400 invalid_parameter naming it. */
export function boundedInteger(name: string, raw: string, min: number, max: number): number {
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const bound = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw badRequest('invalid_parameter', `${name} must be a whole number ${bound}`, { field: name });
  }
  return value;
}

/** A filter's value in the field's type (a time in UTC, as stored), or 400 invalid_parameter naming the parameter. */
function filterValue(field: FieldModel, raw: string, context: ResourceContext, parameter: string): unknown {
  switch (field.kind) {
    case 'integer':
    case 'number': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value))) {
        throw badRequest(
          'invalid_parameter',
          `${parameter} must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}`,
          { field: parameter },
        );
      }
      return value;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false')
        throw badRequest('invalid_parameter', `${parameter} must be true or false`, { field: parameter });
      return raw === 'true';
    case 'time': {
      // The field's own schema reads any ISO 8601 offset and gives the stored form (UTC, whole seconds).
      const parsed = field.schema.safeParse(raw);
      if (!parsed.success)
        throw badRequest(
          'invalid_parameter',
          `${parameter} must be an ISO 8601 time with an offset (encode + as %2B), for example 2026-12-02T09:30:00Z`,
          { field: parameter },
        );
      return parsed.data;
    }
    case 'reference': {
      const target = field.references === undefined ? undefined : context.catalog.collections[field.references];
      return target === undefined ? raw : referencedId(target, raw, parameter, context.baseUrl);
    }
    default:
      if (field.values !== undefined && !field.values.includes(raw)) {
        throw badRequest('invalid_parameter', `${parameter} must be one of ${field.values.join(', ')}`, {
          field: parameter,
        });
      }
      return raw;
  }
}
