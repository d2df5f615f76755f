import { describe, expect, it } from 'vitest';
import { areaOf, selfTimeByArea } from '../../bench/lib/cpu-profile.ts';

describe('profile areas', () => {
  it.each([
    [
      'a runtime folder',
      { url: 'file:///work/main/runtime/auth/bearer-auth.ts', functionName: 'verify', want: 'runtime/auth' },
    ],
    ['a package', { url: 'file:///work/main/node_modules/koa/lib/response.js', functionName: 'set', want: 'koa' }],
    [
      'a scoped package',
      { url: 'file:///x/node_modules/@koa/router/dist/index.mjs', functionName: 'match', want: '@koa/router' },
    ],
    ['a Node module', { url: 'node:_http_outgoing', functionName: 'setHeader', want: 'node:_http_outgoing' }],
    [
      'generated code',
      { url: 'file:///tmp/p/generated/resources/v1/orders.ts', functionName: 'read', want: 'generated/' },
    ],
    ['the socket write', { url: '', functionName: 'writev', want: 'socket writes (kernel)' }],
    ['idle', { url: '', functionName: '(idle)', want: '(idle)' }],
    ['a regular expression', { url: '', functionName: 'RegExp: ^a+$', want: 'regular expressions' }],
  ])('%s', (_name, { url, functionName, want }) => {
    expect(areaOf({ url, functionName })).toBe(want);
  });

  it('sums self time only over samples inside the window', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(idle)', url: '' } },
        { id: 2, callFrame: { functionName: 'find', url: 'file:///r/runtime/storage/sqlite/sqlite-store.ts' } },
      ],
      startTime: 1_000,
      // Samples at 1010, 1020, 1030, 1040.
      samples: [2, 2, 1, 2],
      timeDeltas: [10, 10, 10, 10],
    };
    expect(Object.fromEntries(selfTimeByArea(profile, 1_015, 1_035))).toEqual({ 'runtime/storage': 10, '(idle)': 10 });
  });
});
