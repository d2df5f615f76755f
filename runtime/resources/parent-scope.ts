import type { Context } from 'koa';
import { callerOf } from '../auth/index.ts';
import { badRequest, unprocessable } from '../errors/index.ts';
import type { PathParams } from '../routing/index.ts';
import { andThen, type Maybe, type Row } from '../storage/index.ts';
import { rowsForCaller } from './caller-rows.ts';
import { keyFromPath, resourceNotFound } from './identifiers.ts';
import type { ListRequest } from './list-query.ts';
import type { CollectionModel } from './model.ts';
import { referencedId } from './references.ts';
import type { ResourceContext } from './runtime-context.ts';

/**
 * A collection as it is served below one row of its parent (`/v1/pets/3/visits`): the rows whose
 * reference field (the declaration's `parent`) names that row. Every answer there goes through the
 * parent first, so a parent that does not exist, or that the caller may not see, is the same 404.
 */
export interface ParentScope {
  /** The child's reference field naming the parent. */
  readonly field: string;
  readonly parent: CollectionModel;
  /** The parent's key from the path, once the caller may see that row; otherwise 404 resource_not_found. */
  parentKey(ctx: Context, params: PathParams): Maybe<string | number>;
  /** The list query restricted to the parent's rows; a filter on the field naming another parent is 400. */
  listOf(query: ListRequest, key: string | number): ListRequest;
  /** Whether a row belongs to this parent (a child read under another parent is a missing one). */
  holds(row: Row, key: string | number): boolean;
  /** A create's body with the field set to the parent; naming another parent (or none) is 422 parent_mismatch. */
  bodyOf(body: unknown, key: string | number): unknown;
}

/** Keys compare as text: a store may read an integer column back as a number or a bigint's string. */
const sameKey = (a: unknown, b: unknown) => a !== undefined && a !== null && String(a) === String(b);

export function parentScopeOf(context: ResourceContext, model: CollectionModel): ParentScope | undefined {
  if (model.parent === undefined) return undefined;
  const field = model.parent;
  const references = model.fields.find((candidate) => candidate.name === field)?.references;
  const parent = references === undefined ? undefined : context.catalog.collections[references];
  if (parent === undefined) throw new Error(`${model.name}: parent field ${field} refers to no collection`);
  // The parent's own row access decides whether the caller may reach its children at all.
  const parentRows = rowsForCaller(context.catalog, parent);
  const here = `by the path (${parent.singular} %s)`;
  return {
    field,
    parent,
    parentKey: (ctx, params) => {
      const key = keyFromPath(parent, params[parent.identifier.name]);
      return andThen(parentRows.reader(callerOf(ctx), context.store).find(parent.table, key), (row) => {
        if (row === undefined) throw resourceNotFound(parent, key);
        return key;
      });
    },
    listOf: (query, key) => {
      const filtered = query.where[field];
      if (filtered !== undefined && !sameKey(filtered, key))
        throw badRequest(
          'invalid_parameter',
          `${field} is given ${here.replace('%s', String(key))}: leave it out, or name the same ${parent.singular}`,
          { field },
        );
      return { ...query, where: { ...query.where, [field]: key } };
    },
    holds: (row, key) => sameKey(row[field], key),
    bodyOf: (body, key) => {
      // Not an object: the create's own check answers 400 for it.
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
      const named = (body as Record<string, unknown>)[field];
      if (named === undefined) return { ...body, [field]: key };
      const id = named === null ? null : referencedId(parent, named, field, context.baseUrl);
      if (!sameKey(id, key))
        throw unprocessable(
          'parent_mismatch',
          `${field} names ${named === null ? 'no' : `${parent.singular} ${String(id)}`}, but the ${parent.singular} is given ${here.replace('%s', String(key))}: leave ${field} out, or name the same ${parent.singular}`,
          { field, resource: model.name },
        );
      return body;
    },
  };
}
