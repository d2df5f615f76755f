import Koa from 'koa';
import request from 'supertest';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  checkIfMatch,
  conventionalResponse,
  etagOf,
  jsonBody,
  representResource,
  serializeJson,
  validBody,
} from '../../../runtime/index.ts';

const transfer = { transfer_id: 7, amount: 12.5, note: null, account: 'https://api.example/v1/accounts/3' };

/** A hand-written Koa app using the helpers, as docs/runtime-api.md shows. */
function app() {
  const koa = new Koa();
  koa.use(conventionalResponse());
  koa.use(jsonBody({ limitBytes: 64 * 1024 }));
  koa.use(async (ctx) => {
    if (ctx.method === 'POST') {
      const body = validBody(
        ctx,
        z.object({ amount: z.number().positive(), note: z.string().optional() }),
        'transfers',
      );
      ctx.body = { amount: body.amount };
      return;
    }
    if (ctx.method === 'PUT') checkIfMatch(ctx, transfer);
    ctx.body = await representResource(ctx, transfer, {
      expand: (resource) => Promise.resolve({ ...resource, account: { account_id: 3 } }),
    });
  });
  return koa.callback();
}

describe('helpers for hand-written Koa routes: the conventions without the generator', () => {
  it('validBody: the typed body, or 400 with an entry per problem naming its field (unknown members refused)', async () => {
    expect((await request(app()).post('/').send({ amount: 3 })).body).toEqual({ amount: 3 });
    const refused = await request(app()).post('/').send({ amount: -1, extra: true });
    expect(refused.status).toBe(400);
    expect(
      refused.body.errors.map((entry: { code: string; field: string }) => [entry.code, entry.field]).sort(),
    ).toEqual([
      ['invalid_field', 'amount'],
      ['unknown_field', 'extra'],
    ]);
    const missing = await request(app()).post('/').send({});
    expect(missing.body.errors[0]).toMatchObject({ code: 'missing_field', field: 'amount', resource: 'transfers' });
    expect((await request(app()).post('/')).body.errors).toEqual([
      { code: 'missing_body', message: 'this request needs a JSON body', resource: 'transfers' },
    ]);
  });

  it('validBody names the resource `body` when the route gives no name', async () => {
    const koa = new Koa();
    koa.use(conventionalResponse());
    koa.use(jsonBody({ limitBytes: 1024 }));
    koa.use((ctx) => {
      ctx.body = validBody(ctx, z.object({ amount: z.number() }));
    });
    const refused = await request(koa.callback()).post('/').send({});
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'missing_field', field: 'amount', resource: 'body' });
  });

  it('representResource without an expand: X-Expansion-Fields asks for nothing it can do, the resource is served as is', async () => {
    const koa = new Koa();
    koa.use(conventionalResponse());
    koa.use(async (ctx) => {
      ctx.body = await representResource(ctx, transfer);
    });
    const read = await request(koa.callback()).get('/').set('X-Expansion-Fields', 'true');
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ transfer_id: 7, amount: 12.5, account: transfer.account });
  });

  it('representResource: X-Result-Fields projects (400 for an unknown name), nulls are left out, X-Expansion-Fields inlines', async () => {
    expect((await request(app()).get('/')).body).toEqual({ transfer_id: 7, amount: 12.5, account: transfer.account });
    expect((await request(app()).get('/').set('X-Result-Fields', 'amount')).body).toEqual({ amount: 12.5 });
    expect((await request(app()).get('/').set('X-Result-Fields', 'nope')).status).toBe(400);
    expect((await request(app()).get('/').set('X-Expansion-Fields', 'true')).body.account).toEqual({ account_id: 3 });
  });

  it('checkIfMatch: 412 unless If-Match names the current version, as a GET under any presentation tags it', async () => {
    const presentations = [
      {},
      { 'X-Result-Fields': 'amount' },
      { 'X-Expansion-Fields': 'true' },
      { 'X-Pretty-Print': 'false' },
    ];
    for (const headers of presentations) {
      const read = await request(app()).get('/').set(headers).expect(200);
      expect(
        (await request(app()).put('/').set('If-Match', read.headers.etag!).send({})).status,
        JSON.stringify(headers),
      ).toBe(200);
    }
    const stale = await request(app())
      .put('/')
      .set('If-Match', etagOf(serializeJson({ ...transfer, amount: 1 }, { pretty: true })))
      .send({});
    expect(stale.status).toBe(412);
    expect(stale.body.errors[0].code).toBe('precondition_failed');
    // No If-Match: nothing to compare.
    expect((await request(app()).put('/').send({})).status).toBe(200);
  });
});
