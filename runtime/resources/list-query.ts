import type { Context } from 'koa';
import { badRequest } from '../errors/index.ts';
import type { CollectionModel, FieldModel, VersionModel } from './model.ts';
import type { ResourceContext } from './runtime-context.ts';
import { referencedId } from './references.ts';
import { rememberRecent } from '../caching/recent-results.ts';

/** The paging parameters of every list: `limit` (1..maxLimit, default defaultLimit) and `offset` (0..). */
export const PAGING_PARAMETERS = ['limit', 'offset'] as const;

export interface ListRequest {
  readonly where: Record<string, unknown>;
  readonly limit: number;
  readonly offset: number;
}

/**
 * Reads a list request's query string: equality filters on the fields the collection declares
 * filterable, and paging. Anything else, or a value out of bounds, gets 400 naming the parameter.
 */
export function parseListQuery(ctx: Context, model: CollectionModel, version: VersionModel, context: ResourceContext): ListRequest {
  return recentParserFor(context, model, version)(ctx.querystring);
}

/** Per API context and version (a model's versions are its own objects): the query strings parsed last, remembered. */
const recentParsers = new WeakMap<ResourceContext, WeakMap<VersionModel, (query: string) => ListRequest>>();

function recentParserFor(context: ResourceContext, model: CollectionModel, version: VersionModel): (query: string) => ListRequest {
  let byVersion = recentParsers.get(context);
  if (byVersion === undefined) {
    byVersion = new WeakMap();
    recentParsers.set(context, byVersion);
  }
  let parser = byVersion.get(version);
  if (parser === undefined) {
    const filterable = new Map(model.fields.filter((field) => field.filterable).map((field) => [field.name, field]));
    // A list request's query is a pure function of its text: a bad one throws and is not remembered.
    parser = rememberRecent((query: string) => parseQueryText(query, model, version, context, filterable));
    byVersion.set(version, parser);
  }
  return parser;
}

function parseQueryText(query: string, model: CollectionModel, version: VersionModel, context: ResourceContext, filterable: ReadonlyMap<string, FieldModel>): ListRequest {
  const where: Record<string, unknown> = {};
  let limit = model.paging.defaultLimit;
  let offset = 0;
  for (const [name, raw] of new URLSearchParams(query)) {
    if (name === 'limit') limit = boundedInteger(name, raw, 1, model.paging.maxLimit);
    else if (name === 'offset') offset = boundedInteger(name, raw, 0, Number.MAX_SAFE_INTEGER);
    else {
      const field = filterable.get(name);
      if (field === undefined || !version.fields.some((f) => f.name === name)) {
        const known = [...filterable.keys(), ...PAGING_PARAMETERS].join(', ');
        throw badRequest('unknown_parameter', `${name} is not a filter of ${model.name}; use one of ${known}`, { field: name });
      }
      if (name in where) throw badRequest('repeated_parameter', `${name} is given more than once`, { field: name });
      where[name] = filterValue(field, raw, context);
    }
  }
  // Shared by every request with the same query text: nobody may change it.
  return Object.freeze({ where: Object.freeze(where), limit, offset });
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

function filterValue(field: FieldModel, raw: string, context: ResourceContext): unknown {
  const name = field.name;
  switch (field.kind) {
    case 'integer':
    case 'number': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value))) {
        throw badRequest('invalid_parameter', `${name} must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}`, { field: name });
      }
      return value;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw badRequest('invalid_parameter', `${name} must be true or false`, { field: name });
      return raw === 'true';
    case 'reference': {
      const target = field.references === undefined ? undefined : context.catalog.collections[field.references];
      return target === undefined ? raw : referencedId(target, raw, name, context.baseUrl);
    }
    default:
      return raw;
  }
}
