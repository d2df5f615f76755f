import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  assertIfMatch,
  etagOf,
  matchesIfMatch,
  matchesIfNoneMatch,
  parseModifiedSince,
} from '../../../runtime/caching/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';
import { jsonResponse, presentationOf, serializeJson } from '../../../runtime/responses/index.ts';
import { headerOf } from '../../support/header-of.ts';

describe('entity tag comparison', () => {
  const tag = etagOf('{"a":1}');
  it.each([
    ['strong match', tag, true, true],
    ['weak form', `W/${tag}`, true, false],
    ['gzip variant', `${tag.slice(0, -1)}-gzip"`, true, true],
    ['list', `"x", ${tag}`, true, true],
    ['star', '*', true, true],
    ['other', '"x"', false, false],
  ])('%s: If-None-Match %s, If-Match %s', (_name, header, noneMatch, match) => {
    expect(matchesIfNoneMatch(header, tag)).toBe(noneMatch);
    expect(matchesIfMatch(header, tag)).toBe(match);
  });

  it.each([
    ['2026-11-22T15:40:00Z', '2026-11-22T15:40:00.000Z'],
    ['Sun, 22 Nov 2026 15:40:00 GMT', '2026-11-22T15:40:00.000Z'],
    ['2026-11-22', undefined],
    ['garbage', undefined],
  ])('If-Modified-Since %s', (header, want) => {
    expect(parseModifiedSince(header)?.toISOString()).toBe(want);
  });
});

describe('If-Match in a plain Koa app', () => {
  it('lets exactly one of two racing writes with the same tag through; the other gets 412 and writes nothing', async () => {
    let record = { version: 1 };
    const koa = new Koa();
    koa.use(jsonResponse());
    koa.use(errorHandler());
    koa.use(async (ctx) => {
      if (ctx.method === 'GET') {
        ctx.body = record;
        return;
      }
      // The check and the write happen without an await between them, as in one store transaction.
      assertIfMatch(ctx.get('If-Match'), etagOf(serializeJson(record, presentationOf(ctx))));
      record = { version: record.version + 1 };
      ctx.body = record;
    });
    const served = koa.callback();
    const first = await request(served).get('/').expect(200);
    const results = await Promise.all(
      [1, 2].map(() => request(served).put('/').set('If-Match', headerOf(first, 'etag'))),
    );
    expect(results.map((response) => response.status).sort()).toEqual([200, 412]);
    const refused = results.find((response) => response.status === 412)!;
    expect(refused.body.errors[0].code).toBe('precondition_failed');
    expect(record.version).toBe(2);
  });
});
