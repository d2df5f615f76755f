import { badRequest, unprocessable } from '../errors/index.ts';
import { wait, type Flow, type StoreReader } from '../storage/index.ts';
import type { CollectionModel } from './model.ts';

/**
 * The id a written reference names. Clients write a reference as the referenced resource's URI
 * (absolute, as responses show it, or just its path) or as its bare id.
 */
export function referencedId(target: CollectionModel, value: unknown, field: string, baseUrl: string): unknown {
  if (typeof value === 'number') return checkIdType(target, value, field);
  const text = String(value);
  if (!text.includes('/')) return checkIdType(target, target.identifier.type === 'integer' ? Number(text) : text, field);
  const path = text.startsWith(baseUrl) ? text.slice(baseUrl.length) : safePathOf(text);
  const match = path === undefined ? null : /^\/v[0-9]+\/([^/]+)\/([^/?#]+)$/.exec(path);
  if (match === null || match[1] !== target.name) {
    throw badRequest('invalid_reference', `${field} must be the URI or id of one of ${target.name}`, { field });
  }
  const id = decodeURIComponent(match[2] as string);
  return checkIdType(target, target.identifier.type === 'integer' ? Number(id) : id, field);
}

function safePathOf(text: string): string | undefined {
  if (text.startsWith('/')) return text;
  try {
    return new URL(text).pathname;
  } catch {
    return undefined;
  }
}

function checkIdType(target: CollectionModel, id: unknown, field: string): unknown {
  if (target.identifier.type === 'integer' && !(typeof id === 'number' && Number.isSafeInteger(id) && id > 0)) {
    throw badRequest('invalid_reference', `${field} must be the URI or integer id of one of ${target.name}`, { field });
  }
  return id;
}

/** 422 when the referenced resource does not exist (checked inside the write's transaction). */
export function* assertReferenceExists(reader: StoreReader, target: CollectionModel, id: unknown, field: string): Flow<void> {
  if ((yield* wait(reader.find(target.table, id))) === undefined) {
    throw unprocessable('reference_not_found', `${field} refers to ${target.singular} ${String(id)}, which does not exist`, {
      field,
      resource: target.name,
    });
  }
}
