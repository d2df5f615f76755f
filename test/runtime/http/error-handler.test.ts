import Koa from 'koa';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, badRequest, documentsAt } from '../../../runtime/errors/index.ts';
import { errorHandler, renderedErrorOf, type ErrorHandlerOptions } from '../../../runtime/http/index.ts';

/** An app whose one handler throws `thrown` behind errorHandler(options); `seen` gets the error each response was rendered from. */
function failingApp(thrown: unknown, options?: ErrorHandlerOptions) {
  const seen: (ApiError | undefined)[] = [];
  const app = new Koa();
  app.use(async (ctx, next) => {
    await next();
    seen.push(renderedErrorOf(ctx));
  });
  app.use(errorHandler(options));
  app.use(() => {
    throw thrown;
  });
  return { served: app.callback(), seen };
}

afterEach(() => vi.restoreAllMocks());

describe("errorHandler(): every failure rendered as the conventions' error body", () => {
  it('an ApiError: its status, headers and body, as JSON', async () => {
    const error = new ApiError(405, 'method_not_allowed', 'DELETE is not allowed here', {
      headers: { Allow: 'GET, HEAD' },
      field: 'method',
      resource: 'orders',
    });
    const { served, seen } = failingApp(error);
    const response = await request(served).get('/orders');
    expect(response.status).toBe(405);
    expect(response.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.body).toEqual({
      message: 'Method Not Allowed',
      errors: [
        { code: 'method_not_allowed', message: 'DELETE is not allowed here', resource: 'orders', field: 'method' },
      ],
    });
    expect(seen).toEqual([error]);
  });

  it('a response that did not fail was rendered from no error', async () => {
    const app = new Koa();
    const seen: unknown[] = [];
    app.use(async (ctx, next) => {
      await next();
      seen.push(renderedErrorOf(ctx));
    });
    app.use(errorHandler());
    app.use((ctx) => void (ctx.body = { fine: true }));
    await request(app.callback()).get('/').expect(200, { fine: true });
    expect(seen).toEqual([undefined]);
  });

  it("documentFor adds each entry's documentation address", async () => {
    const { served } = failingApp(badRequest('missing_field', 'item is required', { field: 'item' }), {
      documentFor: documentsAt('https://docs.example/e/'),
    });
    const response = await request(served).post('/').expect(400);
    expect(response.body.errors).toEqual([
      {
        code: 'missing_field',
        message: 'item is required',
        field: 'item',
        document: 'https://docs.example/e/missing_field',
      },
    ]);
  });

  it('anything else is a 500 that says nothing of the internals, reported with its cause', async () => {
    const reported: [ApiError, string][] = [];
    const cause = new Error('connection to 10.0.0.7 refused');
    const { served } = failingApp(cause, { report: (error, ctx) => reported.push([error, ctx.path]) });
    const response = await request(served).get('/orders/1?token=secret');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      message: 'Internal Server Error',
      errors: [{ code: 'internal_error', message: 'the server failed to serve this request' }],
    });
    expect(response.text).not.toContain('10.0.0.7');
    expect(reported).toHaveLength(1);
    expect(reported[0]![0]).toMatchObject({ status: 500, code: 'internal_error', cause });
    expect(reported[0]![1]).toBe('/orders/1');
  });

  it.each([
    [501, 'not_implemented'],
    [503, 'service_unavailable'],
    [400, 'missing_field'],
  ])('a %i is an answer, not a fault: nothing is reported', async (status, code) => {
    const reported: unknown[] = [];
    const { served } = failingApp(new ApiError(status, code, 'no'), { report: (error) => reported.push(error) });
    await request(served).get('/').expect(status);
    expect(reported).toEqual([]);
  });

  it('by default a 500 is written to the console with method, path (no query string) and cause', async () => {
    const lines: unknown[][] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args));
    const cause = new Error('boom');
    await request(failingApp(cause).served).get('/orders?token=secret').expect(500);
    expect(lines).toEqual([['GET /orders -> 500', cause]]);
  });

  it('by default a 500 without a cause is written with the error itself', async () => {
    const lines: unknown[][] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args));
    const error = new ApiError(500, 'internal_error', 'broken');
    await request(failingApp(error).served).get('/x').expect(500);
    expect(lines).toEqual([['GET /x -> 500', error]]);
  });
});
