import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '../../../runtime/http/index.ts';
import { clientAddress, limitsFromEnvironment, MemoryCallCounter, rateLimit } from '../../../runtime/limits/index.ts';

describe('rateLimit in a plain Koa app', () => {
  it('counts per address when unauthenticated, trusting X-Forwarded-For only from a configured proxy', async () => {
    const seen: string[] = [];
    const serve = (trustedProxies: string[]) => {
      const koa = new Koa();
      koa.use(errorHandler());
      koa.use(rateLimit({ family: 'resource', points: 2, durationSeconds: 60, trustedProxies }));
      koa.use((ctx) => {
        seen.push(clientAddress(ctx, trustedProxies));
        ctx.body = {};
      });
      return koa.callback();
    };
    const untrusted = serve([]);
    for (const forwarded of ['10.0.0.1', '10.0.0.2'])
      await request(untrusted).get('/').set('X-Forwarded-For', forwarded).expect(200);
    // Spoofed forwarded addresses do not buy more calls from an untrusted peer.
    await request(untrusted).get('/').set('X-Forwarded-For', '10.0.0.3').expect(429);
    expect(seen).toEqual(['127.0.0.1', '127.0.0.1']);

    const trusted = serve(['127.0.0.1']);
    for (const forwarded of ['10.0.0.1', '10.0.0.2', '10.0.0.3'])
      await request(trusted).get('/').set('X-Forwarded-For', forwarded).expect(200);
    expect(seen.slice(2)).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.3']);
  });

  it("counts each authenticated client on its own, whichever came before, and names each window's end in X-RateLimit-Reset", async () => {
    let nowMs = 1_000_000;
    const koa = new Koa();
    koa.use(errorHandler());
    // As authenticate() leaves it: the client of the request's token.
    koa.use((ctx, next) => {
      ctx.state.auth = { client: ctx.get('X-Client') };
      return next();
    });
    koa.use(
      rateLimit({
        family: 'resource',
        points: 3,
        durationSeconds: 60,
        counter: new MemoryCallCounter({ points: 3, durationSeconds: 60, now: () => nowMs }),
      }),
    );
    koa.use((ctx) => {
      ctx.body = {};
    });
    const app = koa.callback();
    const call = async (client: string) => {
      const response = await request(app).get('/').set('X-Client', client);
      return [response.status, response.headers['x-ratelimit-remaining'], response.headers['x-ratelimit-reset']];
    };
    const firstWindowEnds = String((1_000_000 + 60_000) / 1000);
    expect([
      await call('a'),
      await call('b'),
      await call('a'),
      await call('a'),
      await call('b'),
      await call('a'),
    ]).toEqual([
      [200, '2', firstWindowEnds],
      [200, '2', firstWindowEnds],
      [200, '1', firstWindowEnds],
      [200, '0', firstWindowEnds],
      [200, '1', firstWindowEnds],
      [429, '0', firstWindowEnds],
    ]);
    // A new window: a new count, and its own end.
    nowMs += 61_000;
    expect(await call('a')).toEqual([200, '2', String((1_000_000 + 61_000 + 60_000) / 1000)]);
    expect(await call('b')).toEqual([200, '2', String((1_000_000 + 61_000 + 60_000) / 1000)]);
  });

  it.each([
    [{}, { resource: 600, service: 300, setting: 60 }],
    [{ RATE_LIMIT_SETTING: '5/10' }, { resource: 600, service: 300, setting: 5 }],
  ])('limitsFromEnvironment(%j)', (env, want) => {
    const limits = limitsFromEnvironment(env);
    expect({
      resource: limits.resource.points,
      service: limits.service.points,
      setting: limits.setting.points,
    }).toEqual(want);
  });

  it.each([['0/60'], ['ten/60'], ['5'], ['5/0']])(
    'refuses RATE_LIMIT_RESOURCE=%s with a message that says the form',
    (value) => {
      expect(() => limitsFromEnvironment({ RATE_LIMIT_RESOURCE: value })).toThrow(/<calls>\/<seconds>/);
    },
  );
});
