import { badRequest, unprocessable } from '../errors/index.ts';
import { percentDecoded } from '../http/index.ts';
import { wait, type Flow, type StoreReader } from '../storage/index.ts';
import { canonicalPositiveInteger } from './identifiers.ts';
import type { Catalog, CollectionModel, FieldModel } from './model.ts';

/**
 * The id a written reference names. Clients write a reference as the referenced resource's URI
 * (absolute under this API's base, as responses show it, or just its path) or as its bare id. An
 * absolute URI on another host or base is refused (422 foreign_reference): `http://evil.example/v1/orders/1`
 * is not order 1 of this API.
 */
export function referencedId(target: CollectionModel, value: unknown, field: string, baseUrl: string): unknown {
  if (typeof value === 'number') return checkIdType(target, value, field);
  const text = String(value);
  if (!text.includes('/')) return checkIdType(target, idOfText(target, text), field);
  const path = text.startsWith('/') ? text : text.startsWith(`${baseUrl}/`) ? text.slice(baseUrl.length) : undefined;
  if (path === undefined && ABSOLUTE_URI.test(text)) {
    throw unprocessable('foreign_reference', `${field} must be a URI of this API (${baseUrl}/...), not ${text}`, {
      field,
      resource: target.name,
    });
  }
  const match = path === undefined ? null : /^\/v[0-9]+\/([^/]+)\/([^/?#]+)$/.exec(path);
  if (match === null || match[1] !== target.name) {
    throw badRequest('invalid_reference', `${field} must be the URI or id of one of ${target.name}`, {
      field,
      resource: target.name,
    });
  }
  return checkIdType(target, idOfText(target, percentDecoded(match[2] as string)), field);
}

/** An id written as text: an integer id only in the form responses write it (`7`, not `07` or `7e0`). */
function idOfText(target: CollectionModel, text: string | undefined): unknown {
  if (target.identifier.type !== 'integer') return text;
  return canonicalPositiveInteger(text);
}

/** A scheme and an authority: `http://host...` (RFC 3986). */
const ABSOLUTE_URI = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The id, or 400 invalid_reference when it cannot be one of `target`'s (undefined: none could be read). */
function checkIdType(target: CollectionModel, id: unknown, field: string): unknown {
  const integer = target.identifier.type === 'integer';
  const valid = integer ? typeof id === 'number' && Number.isSafeInteger(id) && id > 0 : id !== undefined;
  if (!valid) {
    throw badRequest(
      'invalid_reference',
      `${field} must be the URI or ${integer ? 'integer ' : ''}id of one of ${target.name}`,
      {
        field,
        resource: target.name,
      },
    );
  }
  return id;
}

/** 422 when the referenced resource does not exist (checked inside the write's transaction). */
export function* assertReferenceExists(
  reader: StoreReader,
  target: CollectionModel,
  id: unknown,
  field: string,
): Flow<void> {
  if ((yield* wait(reader.find(target.table, id))) === undefined) {
    throw unprocessable(
      'reference_not_found',
      `${field} refers to ${target.singular} ${String(id)}, which does not exist`,
      {
        field,
        resource: target.name,
      },
    );
  }
}

/**
 * Every reference field (or array of references) of the catalog that points at `target`, with the
 * collection that holds it: what a delete of a `target` row reaches. An array has no onDelete: it restricts.
 */
export function referencesTo(
  catalog: Catalog,
  target: CollectionModel,
): Array<{ readonly holder: CollectionModel; readonly field: FieldModel }> {
  return Object.values(catalog.collections).flatMap((holder) =>
    holder.fields.filter((field) => field.references === target.name).map((field) => ({ holder, field })),
  );
}

/**
 * The ids an array of references names (each item a URI or an id, as a single reference takes
 * them), each checked to exist and be visible to the caller as a single reference is: a refusal
 * names the item (`products[2]`). With uniqueItems, two items naming one row (its URI and its id)
 * are refused as two equal items are.
 */
export function* referencedIds(
  reader: StoreReader,
  target: CollectionModel,
  field: FieldModel,
  items: readonly unknown[],
  baseUrl: string,
): Flow<unknown[]> {
  const ids: unknown[] = [];
  for (const [index, item] of items.entries()) {
    const name = `${field.name}[${index}]`;
    const id = referencedId(target, item, name, baseUrl);
    if (field.uniqueItems === true && ids.includes(id))
      throw badRequest('invalid_field', `${name}: repeats ${target.singular} ${String(id)}`, {
        field: name,
        resource: target.name,
      });
    yield* assertReferenceExists(reader, target, id, name);
    ids.push(id);
  }
  return ids;
}
