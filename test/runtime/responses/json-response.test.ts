import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { badRequest } from '../../../runtime/errors/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';
import { jsonResponse, LAST_MODIFIED_STATE } from '../../../runtime/responses/index.ts';
import { setJsonBody } from '../../../runtime/http/index.ts';
import { headerOf } from '../../support/header-of.ts';

/** A plain Koa app with only the serialiser and the error renderer: no generator involved. */
function app(handler: Koa.Middleware) {
  const koa = new Koa();
  koa.use(jsonResponse());
  koa.use(errorHandler());
  koa.use(handler);
  return koa.callback();
}

describe('jsonResponse', () => {
  it('pretty-prints by default and says so; X-Pretty-Print: false gets compact JSON', async () => {
    const served = app((ctx) => void (ctx.body = { order_id: 1, items: [1, 2] }));
    const pretty = await request(served).get('/').expect(200);
    expect(pretty.text).toBe('{\n  "order_id": 1,\n  "items": [\n    1,\n    2\n  ]\n}\n');
    expect(pretty.headers['x-pretty-print']).toBe('true');
    const compact = await request(served).get('/').set('X-Pretty-Print', 'false').expect(200);
    expect(compact.text).toBe('{"order_id":1,"items":[1,2]}');
    expect(compact.headers['x-pretty-print']).toBe('false');
  });

  it('sends exactly application/json;charset=UTF-8, on success and on errors', async () => {
    const ok = await request(app((ctx) => void (ctx.body = []))).get('/');
    expect(ok.headers['content-type']).toBe('application/json;charset=UTF-8');
    const failed = await request(
      app(() => {
        throw badRequest('missing_field', 'x is required', { field: 'x' });
      }),
    )
      .get('/')
      .expect(400);
    expect(failed.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(failed.body).toEqual({
      message: 'Bad Request',
      errors: [{ code: 'missing_field', message: 'x is required', field: 'x' }],
    });
  });

  it('serialises the body once', async () => {
    let calls = 0;
    const body = { toJSON: () => ({ calls: ++calls }) };
    const served = app((ctx) => void (ctx.body = Object.assign(Object.create(Object.prototype), body)));
    const response = await request(served).get('/').expect(200);
    expect(response.body).toEqual({ calls: 1 });
    expect(calls).toBe(1);
  });

  it('through setJsonBody, serialises at once and answers exactly what ctx.body = value answers, once serialised', async () => {
    let calls = 0;
    const value = () =>
      Object.assign(Object.create(Object.prototype), { toJSON: () => ({ calls: ++calls, items: [1, 2] }) });
    let seen: unknown;
    let callsWhenSet = 0;
    const viaHelper = app((ctx) => {
      setJsonBody(ctx, value());
      seen = ctx.body;
      callsWhenSet = calls;
    });
    const helped = await request(viaHelper).get('/').set('X-Pretty-Print', 'false').expect(200);
    expect(callsWhenSet).toBe(1);
    expect(seen).toBe('{"calls":1,"items":[1,2]}');
    // The body is made once; the version's tag of a compact GET lays the value out the default way
    // once more (responses/version-tag.ts), which is the only other call.
    expect(calls).toBe(2);
    const plain = await request(app((ctx) => void (ctx.body = value())))
      .get('/')
      .set('X-Pretty-Print', 'false')
      .expect(200);
    expect(helped.text.replace('"calls":1', '"calls":3')).toBe(plain.text);
    for (const name of ['content-type', 'x-pretty-print', 'content-length'])
      expect(helped.headers[name]).toBe(plain.headers[name]);
    expect(headerOf(helped, 'etag')).toMatch(/^"/);
  });

  it('through setJsonBody, then an error: the error body is what is sent, in the layout asked for', async () => {
    const served = app((ctx) => {
      setJsonBody(ctx, { order_id: 1 });
      throw badRequest('invalid_value', 'no', { field: 'quantity' });
    });
    const response = await request(served).get('/').set('X-Pretty-Print', 'false').expect(400);
    expect(response.text).toBe(
      '{"message":"Bad Request","errors":[{"code":"invalid_value","message":"no","field":"quantity"}]}',
    );
    expect(response.headers['x-pretty-print']).toBe('false');
  });

  it('through setJsonBody, then a body of another kind: no X-Pretty-Print is left behind', async () => {
    const served = app((ctx) => {
      setJsonBody(ctx, { order_id: 1 });
      ctx.type = 'text/plain';
      ctx.body = 'plain text';
    });
    const response = await request(served).get('/').expect(200);
    expect(response.text).toBe('plain text');
    expect(response.headers['x-pretty-print']).toBeUndefined();
  });

  it('tags 200 GETs (objects and lists) with ETag and the same E-Tag', async () => {
    for (const value of [{ a: 1 }, [{ a: 1 }, { a: 2 }]]) {
      const response = await request(app((ctx) => void (ctx.body = value)))
        .get('/')
        .expect(200);
      expect(headerOf(response, 'etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(response.headers['e-tag']).toBe(headerOf(response, 'etag'));
    }
  });

  it.each([
    ['the same tag', (tag: string) => tag],
    ['a weak form of it', (tag: string) => `W/${tag}`],
    ['a list holding it', (tag: string) => `"other", ${tag}`],
    ['*', () => '*'],
  ])('If-None-Match with %s → 304 with no body and the same ETag', async (_name, header) => {
    const served = app((ctx) => void (ctx.body = { a: 1 }));
    const first = await request(served).get('/').expect(200);
    const second = await request(served)
      .get('/')
      .set('If-None-Match', header(headerOf(first, 'etag')))
      .expect(304);
    expect(second.text).toBe('');
    expect(headerOf(second, 'etag')).toBe(headerOf(first, 'etag'));
    // Nothing that described the body the 200 had.
    expect(second.headers['content-type']).toBeUndefined();
    expect(second.headers['content-length']).toBeUndefined();
    expect(second.headers['transfer-encoding']).toBeUndefined();
  });

  it('a 304 never replaces an error', async () => {
    const served = app(() => {
      throw badRequest('bad_thing', 'no');
    });
    await request(served).get('/').set('If-None-Match', '*').expect(400);
  });

  it('sends Last-Modified in ISO 8601 and honours If-Modified-Since in ISO 8601 and HTTP-date form', async () => {
    const changed = new Date('2026-11-22T15:40:00Z');
    const served = app((ctx) => {
      ctx.state[LAST_MODIFIED_STATE] = changed;
      ctx.body = { a: 1 };
    });
    const response = await request(served).get('/').expect(200);
    expect(headerOf(response, 'last-modified')).toBe('2026-11-22T15:40:00Z');
    await request(served).get('/').set('If-Modified-Since', '2026-11-22T15:40:00Z').expect(304);
    await request(served).get('/').set('If-Modified-Since', 'Sun, 22 Nov 2026 15:40:00 GMT').expect(304);
    await request(served).get('/').set('If-Modified-Since', '2026-11-22T15:39:59Z').expect(200);
    await request(served).get('/').set('If-Modified-Since', 'yesterday').expect(200);
  });

  it.each([
    ['a stored ISO 8601 string with milliseconds', '2026-11-22T15:40:00.123Z', '2026-11-22T15:40:00Z'],
    ['an ISO 8601 string with an offset', '2026-11-22T16:40:00+01:00', '2026-11-22T15:40:00Z'],
    ['a Date', new Date('2026-11-22T15:40:00.999Z'), '2026-11-22T15:40:00Z'],
  ])('takes the last change as %s', async (_, changed, sent) => {
    const served = app((ctx) => {
      ctx.state[LAST_MODIFIED_STATE] = changed;
      ctx.body = { a: 1 };
    });
    const response = await request(served).get('/').expect(200);
    expect(headerOf(response, 'last-modified')).toBe(sent);
    await request(served).get('/').set('If-Modified-Since', sent).expect(304);
  });

  it('sends no Last-Modified when the last change is not a time', async () => {
    const served = app((ctx) => {
      ctx.state[LAST_MODIFIED_STATE] = 'not a time';
      ctx.body = { a: 1 };
    });
    const response = await request(served).get('/').set('If-Modified-Since', '2026-11-22T15:40:00Z').expect(200);
    expect(response.headers['last-modified']).toBeUndefined();
  });

  it('refuses an X-Pretty-Print that is neither true nor false', async () => {
    const response = await request(app((ctx) => void (ctx.body = {})))
      .get('/')
      .set('X-Pretty-Print', 'maybe')
      .expect(400);
    expect(response.body.errors[0]).toMatchObject({ code: 'invalid_header', field: 'X-Pretty-Print' });
  });
});
