import Koa, { type Context } from 'koa';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { errorHandler } from '../../../runtime/http/index.ts';
import {
  clientAddress,
  DEFAULT_LIMITS,
  limitKey,
  limitsFromEnvironment,
  memoryCounters,
  MemoryCallCounter,
  rateLimit,
  resilientCounter,
  type CallCount,
  type CallCounter,
} from '../../../runtime/limits/index.ts';

/** A request context as the limits read it: the socket's peer, X-Forwarded-For, the authenticated client. */
const contextOf = (peer: string | undefined, forwarded = '', client?: string) =>
  ({
    req: { socket: { remoteAddress: peer } },
    get: (name: string) => (name === 'X-Forwarded-For' ? forwarded : ''),
    state: client === undefined ? {} : { auth: { client } },
  }) as unknown as Context;

describe('the address a call is counted under', () => {
  it.each([
    ['an untrusted peer: its own address, X-Forwarded-For ignored', '203.0.113.9', '10.0.0.1', [], '203.0.113.9'],
    ['an IPv4-mapped peer: as IPv4', '::ffff:203.0.113.9', '', [], '203.0.113.9'],
    [
      'a trusted proxy: the nearest forwarded address it does not trust',
      '10.0.0.2',
      '198.51.100.7, 10.0.0.3',
      ['10.0.0.2', '10.0.0.3'],
      '198.51.100.7',
    ],
    [
      'a trusted proxy: the last forwarded address when it is not trusted',
      '10.0.0.2',
      '198.51.100.7, 192.0.2.4',
      ['10.0.0.2'],
      '192.0.2.4',
    ],
    [
      'forwarded IPv4-mapped addresses and blanks',
      '10.0.0.2',
      ' , ::ffff:198.51.100.7 ,',
      ['10.0.0.2'],
      '198.51.100.7',
    ],
    [
      'a trusted proxy with only trusted addresses forwarded: the proxy',
      '10.0.0.2',
      '10.0.0.3',
      ['10.0.0.2', '10.0.0.3'],
      '10.0.0.2',
    ],
    ['a trusted proxy with nothing forwarded: the proxy', '10.0.0.2', '', ['10.0.0.2'], '10.0.0.2'],
    ['no peer address', undefined, '', [], 'unknown'],
  ])('%s', (_name, peer, forwarded, trusted, want) => {
    expect(clientAddress(contextOf(peer, forwarded), trusted)).toBe(want);
  });

  it('an authenticated call is counted per client, another per address', () => {
    expect(limitKey(contextOf('203.0.113.9', '', 'ci-bot'), [])).toBe('client:ci-bot');
    expect(limitKey(contextOf('203.0.113.9', '', 'ci-bot'), [])).toBe('client:ci-bot');
    expect(limitKey(contextOf('203.0.113.9', '', 'other'), [])).toBe('client:other');
    expect(limitKey(contextOf('203.0.113.9'), [])).toBe('address:203.0.113.9');
  });
});

describe('rateLimit(): what a client is told', () => {
  /** An app counting with `counter` (or the default), `keyOf` when given. */
  function limited(options: { points: number; counter?: CallCounter; keyOf?: (ctx: Context) => string }) {
    const koa = new Koa();
    koa.use(errorHandler());
    koa.use(rateLimit({ family: 'setting', durationSeconds: 60, ...options }));
    koa.use((ctx) => void (ctx.body = {}));
    return koa.callback();
  }

  it('past the limit: 429 saying how many calls in how long, to which paths, and when to retry', async () => {
    const resetsAtMs = Date.now() + 42_300;
    const counter: CallCounter = { consume: () => ({ allowed: false, remaining: 0, resetsAtMs }) };
    const refused = await request(limited({ points: 5, counter }))
      .get('/')
      .expect(429);
    // 42.3 s left when the test asked; a busy machine may take a while to answer.
    const retryAfter = refused.headers['retry-after'];
    expect(['42', '43']).toContain(retryAfter);
    expect(refused.body.errors).toEqual([
      {
        code: 'rate_limit_exceeded',
        message: `more than 5 calls in 60 s to the setting paths; retry in ${retryAfter} s`,
      },
    ]);
    expect(refused.headers).toMatchObject({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(resetsAtMs / 1000)),
    });
  });

  it('a window that has just ended still asks for a retry in 1 s, never 0', async () => {
    const counter: CallCounter = { consume: () => ({ allowed: false, remaining: 0, resetsAtMs: Date.now() - 500 }) };
    expect(
      (
        await request(limited({ points: 1, counter }))
          .get('/')
          .expect(429)
      ).headers['retry-after'],
    ).toBe('1');
  });

  it('a shared counter that answers later: the same headers', async () => {
    const counter: CallCounter = {
      consume: async () => ({ allowed: true, remaining: 7, resetsAtMs: 1_800_000_000_500 }),
    };
    const ok = await request(limited({ points: 9, counter }))
      .get('/')
      .expect(200);
    expect(ok.headers).toMatchObject({
      'x-ratelimit-limit': '9',
      'x-ratelimit-remaining': '7',
      'x-ratelimit-reset': '1800000001',
    });
  });

  it('counts under the key keyOf gives', async () => {
    const keys: string[] = [];
    const counter: CallCounter = {
      consume: (key) => {
        keys.push(key);
        return { allowed: true, remaining: 1, resetsAtMs: Date.now() + 1000 };
      },
    };
    await request(limited({ points: 2, counter, keyOf: (ctx) => `tenant:${ctx.get('X-Tenant')}` }))
      .get('/')
      .set('X-Tenant', 'acme')
      .expect(200);
    expect(keys).toEqual(['tenant:acme']);
  });

  it('the window moves on: X-RateLimit-Reset names the end of the window each response counts in', async () => {
    let resetsAtMs = 1_800_000_000_000;
    const counter: CallCounter = { consume: () => ({ allowed: true, remaining: 1, resetsAtMs }) };
    const app = limited({ points: 2, counter });
    expect((await request(app).get('/')).headers['x-ratelimit-reset']).toBe('1800000000');
    resetsAtMs += 60_000;
    expect((await request(app).get('/')).headers['x-ratelimit-reset']).toBe('1800000060');
  });
});

describe('MemoryCallCounter windows', () => {
  it('a window ends at its reset time exactly; keys seen once are swept after a window', () => {
    let now = 0;
    const counter = new MemoryCallCounter({ points: 1, durationSeconds: 10, now: () => now });
    expect(counter.consume('a')).toEqual({ allowed: true, remaining: 0, resetsAtMs: 10_000 });
    now = 9_999;
    expect(counter.consume('a').allowed).toBe(false);
    now = 10_000;
    expect(counter.consume('a')).toEqual({ allowed: true, remaining: 0, resetsAtMs: 20_000 });
    counter.consume('b');
    expect(counter.size).toBe(2);
    // 'b' (window to 20,000) is swept at the first call from 20,000 on, not before.
    now = 19_999;
    counter.consume('c');
    expect(counter.size).toBe(3);
    now = 20_000;
    counter.consume('c');
    expect(counter.size).toBe(1);
  });

  it('memoryCounters(): a counter of the family limit given', () => {
    const counter = memoryCounters('setting', { points: 2, durationSeconds: 60 }) as MemoryCallCounter;
    expect([counter.consume('k'), counter.consume('k'), counter.consume('k')].map((count) => count.allowed)).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe('limitsFromEnvironment()', () => {
  it('reads each family, blanks around the numbers allowed; an empty value is the default', () => {
    expect(
      limitsFromEnvironment({ RATE_LIMIT_RESOURCE: ' 100 / 10 ', RATE_LIMIT_SERVICE: '7/1', RATE_LIMIT_SETTING: '' }),
    ).toEqual({
      resource: { points: 100, durationSeconds: 10 },
      service: { points: 7, durationSeconds: 1 },
      setting: DEFAULT_LIMITS.setting,
    });
    expect(DEFAULT_LIMITS).toEqual({
      resource: { points: 600, durationSeconds: 60 },
      service: { points: 300, durationSeconds: 60 },
      setting: { points: 60, durationSeconds: 60 },
    });
  });

  it.each([
    ['1/60x'],
    ['x1/60'],
    ['1.5/60'],
    ['-1/60'],
    ['1/-60'],
    ['99999999999999999999/60'],
    ['60/99999999999999999999'],
  ])('refuses %s, naming the variable and the value', (value) => {
    expect(() => limitsFromEnvironment({ RATE_LIMIT_SERVICE: value })).toThrow(
      `RATE_LIMIT_SERVICE must be <calls>/<seconds> with both at least 1, for example 600/60; got "${value}"`,
    );
  });

  it('accepts 1/1, the smallest limit', () => {
    expect(limitsFromEnvironment({ RATE_LIMIT_SETTING: '1/1' }).setting).toEqual({ points: 1, durationSeconds: 1 });
  });
});

describe('resilientCounter(): counting goes on while the shared store is down', () => {
  const count = (remaining: number): CallCount => ({ allowed: true, remaining, resetsAtMs: 1 });

  it('counts in memory while the shared counter fails, logging the outage and the recovery once each', async () => {
    const lines: string[] = [];
    let failing: 'throw' | 'reject' | false = false;
    const shared: CallCounter = {
      consume: () => {
        if (failing === 'throw') throw new Error('connection is closed');
        if (failing === 'reject') return Promise.reject(new Error('command timed out'));
        return Promise.resolve(count(50));
      },
    };
    const counter = resilientCounter({
      shared,
      fallback: { consume: () => count(9) },
      name: 'Redis call-limit counters',
      log: (line) => lines.push(line),
    });
    expect(await counter.consume('k')).toEqual(count(50));
    failing = 'throw';
    expect(await counter.consume('k')).toEqual(count(9));
    failing = 'reject';
    expect(await counter.consume('k')).toEqual(count(9));
    failing = false;
    expect(await counter.consume('k')).toEqual(count(50));
    expect(await counter.consume('k')).toEqual(count(50));
    failing = 'reject';
    expect(await counter.consume('k')).toEqual(count(9));
    expect(lines).toEqual([
      "Redis call-limit counters unavailable (connection is closed): counting in this process's memory until they answer again",
      'Redis call-limit counters answer again: shared counting resumed',
      "Redis call-limit counters unavailable (command timed out): counting in this process's memory until they answer again",
    ]);
  });

  it('writes the outage to stderr when given no log', async () => {
    const written = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const counter = resilientCounter({
        shared: { consume: () => Promise.reject(new Error('connection is closed')) },
        fallback: { consume: () => count(9) },
        name: 'Redis call-limit counters',
      });
      expect(await counter.consume('k')).toEqual(count(9));
      expect(written.mock.calls).toEqual([
        [
          "Redis call-limit counters unavailable (connection is closed): counting in this process's memory until they answer again",
        ],
      ]);
    } finally {
      written.mockRestore();
    }
  });

  it('a count the shared counter gives at once is handed on at once', () => {
    const counter = resilientCounter({
      shared: { consume: () => count(3) },
      fallback: { consume: () => count(9) },
      name: 'x',
      log: () => undefined,
    });
    expect(counter.consume('k')).toEqual(count(3));
  });
});
