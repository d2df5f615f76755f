import type { z } from 'zod';
import type { Fields } from './fields.ts';
import type { CollectionAccess, DeclaredCollection, Flow } from './rules.ts';
import type { ServiceMethod, ServiceRequest, ServiceResponse } from './service.ts';

/** What an own operation below one resource is given: a service operation's request, and that resource. */
export interface ResourceOperationRequest<
  F extends Fields,
  Query = Record<string, string>,
  Body = unknown,
> extends ServiceRequest<Query, Body> {
  /** The identifier in the path (`/v1/reservations/7/moves`: 7), as the collection types it. */
  readonly key: string | number;
  /** This collection through the data access (as the caller), typed by its fields: `yield* collection.get(key)`. */
  readonly collection: CollectionAccess<F>;
}

/**
 * A hand-written operation below one resource of a collection: `{method} /{version}/{collection}/{id}/{path}`,
 * a sub-resource of that resource as the conventions nest them (two levels). It gets the same checks
 * as the collection's generated routes (its `scopes` per method, plus the operation's own) and the
 * data access in one transaction (docs/own-operations.md).
 */
export interface ResourceOperation<F extends Fields = Fields> {
  readonly method: ServiceMethod;
  /** The segment below the resource: a plural noun, lowercase words joined by hyphens (`moves`, `follow-ups`). */
  readonly path: string;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly description?: string;
  /** The scopes a caller's token must all hold, besides the collection's own for the method. */
  readonly scopes?: readonly string[];
  /** The success statuses the handler answers, for the OpenAPI documents (default: 200). */
  readonly successes?: readonly (200 | 201 | 202 | 204)[];
  /** The OpenAPI operationId. Default: method, singular and path (`postReservationMoves`). */
  readonly operationId?: string;
  /** The collection whose resource the handler answers (its `resource`). Default: this collection. */
  readonly answers?: DeclaredCollection<any> | string;
  /** The work: a generator function on `data` and `collection` (one transaction), or a plain or async one. */
  readonly handle: (
    request: ResourceOperationRequest<F, any, any>,
  ) => ServiceResponse | Promise<ServiceResponse> | Flow<ServiceResponse>;
}
