import { describe, expect, it } from 'vitest';
import { RouteTree, type Route } from '../../../runtime/routing/index.ts';

const route = (method: Route['method'], path: string): Route => ({
  method,
  path,
  family: 'resource',
  handle: () => undefined,
});

describe('RouteTree', () => {
  const tree = new RouteTree();
  for (const r of [
    route('GET', '/v1/orders'),
    route('GET', '/v1/orders/(list)'),
    route('GET', '/v1/orders/:order_id'),
    route('PUT', '/v1/orders/:order_id'),
    route('GET', '/v1/users/:user_id/profiles'),
  ]) {
    tree.add(r);
  }

  const cases: [string, { path: string; want: { methods: string[]; params: Record<string, string> } | undefined }][] = [
    ['collection', { path: '/v1/orders', want: { methods: ['GET'], params: {} } }],
    [
      'literal (list) wins over the id parameter',
      { path: '/v1/orders/(list)', want: { methods: ['GET'], params: {} } },
    ],
    ['percent-encoded (list)', { path: '/v1/orders/%28list%29', want: { methods: ['GET'], params: {} } }],
    [
      'item with a decoded id',
      { path: '/v1/orders/a%20b', want: { methods: ['GET', 'PUT'], params: { order_id: 'a b' } } },
    ],
    [
      'aggregate under its parent',
      { path: '/v1/users/7/profiles', want: { methods: ['GET'], params: { user_id: '7' } } },
    ],
    ['uppercase segment is another path', { path: '/V1/orders', want: undefined }],
    ['third level is not declared', { path: '/v1/users/7/profiles/1', want: undefined }],
    ['trailing slash is not the same path', { path: '/v1/orders/', want: undefined }],
    ['malformed percent-encoding', { path: '/v1/orders/%E0%A4%A', want: undefined }],
    ['unknown version', { path: '/v9/orders', want: undefined }],
  ];
  it.each(cases)('%s', (_name, { path, want }) => {
    const match = tree.match(path);
    if (want === undefined) expect(match).toBeUndefined();
    else expect({ methods: [...(match?.routes.keys() ?? [])], params: match?.params }).toEqual(want);
  });

  it('refuses a duplicate route and conflicting parameter names', () => {
    expect(() => tree.add(route('GET', '/v1/orders'))).toThrow(/duplicate route GET \/v1\/orders/);
    expect(() => tree.add(route('GET', '/v1/orders/:id/x'))).toThrow(/conflicts/);
  });
});
