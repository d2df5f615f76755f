import { badRequest, notFound } from '../errors/index.ts';
import type { CollectionModel } from './model.ts';

/**
 * A positive whole number written in a path segment (leading zeros allowed, as in any integer
 * notation), or 400 invalid_identifier naming the parameter: the OpenAPI documents declare integer
 * identifiers as integers from 1, so a request that says otherwise is malformed, not a miss.
 */
export function integerFromPath(name: string, raw: string | undefined, resource?: string): number {
  const value = raw !== undefined && /^[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw badRequest('invalid_identifier', `${name} must be a whole number from 1, not "${raw ?? ''}"`, {
      field: name,
      ...(resource === undefined ? {} : { resource }),
    });
  }
  return value;
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
