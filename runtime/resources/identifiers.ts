import { notFound } from '../errors/index.ts';
import type { CollectionModel } from './model.ts';

/** The key a path's id segment names; an id of the wrong form is simply not found. */
export function keyFromPath(model: CollectionModel, raw: string | undefined): string | number {
  if (raw !== undefined) {
    if (model.identifier.type === 'string') return raw;
    if (/^[1-9][0-9]{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw))) return Number(raw);
  }
  throw resourceNotFound(model, raw);
}

export function resourceNotFound(model: CollectionModel, raw: unknown) {
  return notFound('resource_not_found', `there is no ${model.singular} ${String(raw)}`, {
    resource: model.name,
    field: model.identifier.name,
  });
}
