import type { EndpointId } from './options.ts';
import type { RequestSpec } from './load.ts';

/** The body of every created order. */
export const ORDER_BODY = '{"item":"x","quantity":1}';

/** A benchmarked endpoint of the example API, the same for every server that serves it. */
export interface Endpoint {
  readonly title: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly expectStatus: number;
  /** Sent with If-None-Match: the ETag of the resource, so the answer is 304. */
  readonly revalidates: boolean;
}

export const ENDPOINTS: Readonly<Record<EndpointId, Endpoint>> = {
  'get-one': { title: 'GET one', method: 'GET', path: '/v1/orders/1', expectStatus: 200, revalidates: false },
  'get-list': {
    title: 'GET list of 20',
    method: 'GET',
    path: '/v1/orders?limit=20',
    expectStatus: 200,
    revalidates: false,
  },
  revalidate: {
    title: 'If-None-Match -> 304',
    method: 'GET',
    path: '/v1/orders/1',
    expectStatus: 304,
    revalidates: true,
  },
  post: { title: 'POST', method: 'POST', path: '/v1/orders', body: ORDER_BODY, expectStatus: 201, revalidates: false },
};

/** The request for an endpoint with the given headers; `etag` is what a revalidation sends back. */
export function requestFor(endpoint: Endpoint, headers: Readonly<Record<string, string>>, etag: string): RequestSpec {
  return {
    method: endpoint.method,
    path: endpoint.path,
    headers: {
      ...headers,
      ...(endpoint.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(endpoint.revalidates ? { 'If-None-Match': etag } : {}),
    },
    ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
    expectStatus: endpoint.expectStatus,
  };
}
