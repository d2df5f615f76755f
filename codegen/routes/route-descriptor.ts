import type { ResolvedOperation } from '../model/index.ts';

export type RouteFamily = 'resource' | 'service' | 'setting';
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route, flattened from the resolved model: the simple list between declarations and emitters.
 * The router index, the OpenAPI document and the duplicate-path lint all read this list.
 */
export interface RouteDescriptor {
  readonly family: RouteFamily;
  readonly version: string;
  readonly method: RouteMethod;
  /** `/v1/orders/:order_id`, `/services/v1/search`, `/settings/v1/gui/lang`. */
  readonly path: string;
  /** What serves it: a collection operation, an aggregate operation, a service or a setting operation. */
  readonly handler:
    | { readonly kind: 'collection'; readonly operation: ResolvedOperation }
    /** A collection's list, create or read below one row of its parent (`/v1/pets/:pet_id/visits`). */
    | { readonly kind: 'sub-collection'; readonly operation: 'list' | 'create' | 'read' }
    | { readonly kind: 'aggregate'; readonly operation: 'read' | 'replace' | 'update' }
    | { readonly kind: 'service'; readonly operation: number }
    /** A collection's hand-written operation below one resource, by its index in `ownOperations`. */
    | { readonly kind: 'own'; readonly operation: number }
    | { readonly kind: 'setting'; readonly operation: 'read' | 'replace' | 'update' }
    /** A former path: 301 to the same path with `from` (the old prefix) replaced by `to`. */
    | { readonly kind: 'moved'; readonly from: string; readonly to: string };
  /** Served without a token and outside every call limit (health checks). */
  readonly open?: true;
  /** The scopes a caller's token must all hold (absent: none). */
  readonly scopes?: readonly string[];
  /** The declaration's name and definition file. */
  readonly declaration: string;
  readonly source: string;
}
