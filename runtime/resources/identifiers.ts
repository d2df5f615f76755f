import { badRequest, notFound } from '../errors/index.ts';
import type { CollectionModel } from './model.ts';

/**
 * An integer identifier as text, in the one form responses write it: decimal digits from 1, no sign,
 * leading zero, exponent or spaces. Anything else is undefined: `01` and `1` would otherwise be two
 * URIs of one resource, which the conventions rule out (a URI designates one object) and which a
 * cache keyed on the URI would hold twice.
 */
export function canonicalPositiveInteger(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9][0-9]{0,15}$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * A positive whole number written in a path segment as responses write it (canonicalPositiveInteger),
 * or 400 invalid_identifier naming the parameter: the OpenAPI documents declare integer identifiers
 * as integers from 1, so a request that says otherwise is malformed, not a miss.
 */
export function integerFromPath(name: string, raw: string | undefined, resource?: string): number {
  const value = canonicalPositiveInteger(raw);
  if (value === undefined) {
    throw badRequest(
      'invalid_identifier',
      `${name} must be a whole number from 1 without leading zeros, not "${raw ?? ''}"`,
      {
        field: name,
        ...(resource === undefined ? {} : { resource }),
      },
    );
  }
  return value;
}

/**
 * A key handed to the data access by a rule or an own operation: for an integer identifier a whole
 * number from 1, or the text of a path segment (`params.memo_id`) checked as integerFromPath checks
 * a path's; 400 invalid_identifier naming the identifier for any other (`Number('abc')`, `1.5`, `'01'`),
 * which would otherwise read as a missing row or, through SQLite's type affinity, as another one.
 */
export function keyOfAccess(model: CollectionModel, key: string | number): string | number {
  if (model.identifier.type !== 'integer') return key;
  if (typeof key === 'string') return integerFromPath(model.identifier.name, key, model.name);
  if (Number.isSafeInteger(key) && key >= 1) return key;
  throw badRequest('invalid_identifier', `${model.identifier.name} must be a whole number from 1, not ${String(key)}`, {
    field: model.identifier.name,
    resource: model.name,
  });
}

/** The key a path's id segment names: a string as it is, an integer id checked by integerFromPath. */
export function keyFromPath(model: CollectionModel, raw: string | undefined): string | number {
  if (model.identifier.type === 'integer') return integerFromPath(model.identifier.name, raw, model.name);
  if (raw === undefined || raw === '')
    throw badRequest('invalid_identifier', `${model.identifier.name} must not be empty`, {
      field: model.identifier.name,
      resource: model.name,
    });
  return raw;
}

export function resourceNotFound(model: CollectionModel, raw: unknown) {
  return notFound('resource_not_found', `there is no ${model.singular} ${String(raw)}`, {
    resource: model.name,
    field: model.identifier.name,
  });
}
