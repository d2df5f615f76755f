import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '../../../runtime/http/index.ts';
import { presentationHeaders } from '../../../runtime/responses/index.ts';

/** A plain Koa app: the error renderer, the check, and a handler that counts the requests reaching it. */
function app() {
  const reached: string[] = [];
  const koa = new Koa();
  koa.use(errorHandler());
  koa.use(presentationHeaders());
  koa.use((ctx) => {
    reached.push(ctx.method);
    ctx.body = { ok: true };
  });
  return { served: koa.callback(), reached };
}

describe('presentationHeaders', () => {
  it.each([
    ['X-Pretty-Print', 'maybe'],
    ['X-Pretty-Print', '1'],
    ['X-Expansion-Fields', 'yes'],
    ['X-Expansion-Fields', 'true, false'],
  ])('answers 400 invalid_header naming %s (%s) before the handler runs', async (header, value) => {
    const { served, reached } = app();
    const response = await request(served).post('/').set(header, value).expect(400);
    expect(response.body.errors[0]).toMatchObject({ code: 'invalid_header', field: header });
    expect(reached).toEqual([]);
  });

  it('lets true and false through, in any case and with spaces, and requests without them', async () => {
    const { served, reached } = app();
    await request(served).get('/').expect(200);
    await request(served).get('/').set('X-Pretty-Print', ' FALSE ').set('X-Expansion-Fields', 'True').expect(200);
    await request(served).get('/').set('X-Pretty-Print', 'true').set('X-Expansion-Fields', 'false').expect(200);
    expect(reached).toEqual(['GET', 'GET', 'GET']);
  });
});
