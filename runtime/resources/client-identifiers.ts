import { badRequest, preconditionFailed } from '../errors/index.ts';
import type { Context } from 'koa';
import { requestHeader } from '../http/index.ts';
import type { CollectionModel } from './model.ts';

/**
 * A string identifier a client may give a new resource: lowercase letters, digits and hyphens
 * inside, at most 64 characters, so its URI follows the path rules (no uppercase, hyphens).
 */
const CLIENT_STRING_IDENTIFIER = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Whether PUT to an identifier that does not exist yet creates the resource (the collection declares createOnPut). */
export function createsOnPut(model: CollectionModel): boolean {
  return model.createOnPut === true && model.identifier.assignedBy === 'client';
}

/**
 * Checks that PUT may create the resource at `key`: the identifier has the form a client may choose
 * (400 invalid_identifier), and the request does not say it expects a current version (`If-Match`
 * names one, and there is none: 412).
 */
export function assertMayCreateAt(ctx: Context, model: CollectionModel, key: string | number): void {
  if (typeof key === 'string' && !CLIENT_STRING_IDENTIFIER.test(key)) {
    throw badRequest(
      'invalid_identifier',
      `${model.identifier.name} "${key}" must be 1 to 64 lowercase letters, digits and inner hyphens`,
      {
        field: model.identifier.name,
        resource: model.name,
      },
    );
  }
  if (requestHeader(ctx, 'if-match') !== '')
    throw preconditionFailed(`there is no ${model.singular} ${String(key)} for If-Match to match`);
}
