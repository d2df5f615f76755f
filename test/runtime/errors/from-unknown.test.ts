import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { unprocessable as ruleUnprocessable } from '@convapi/dsl';
import { ApiError, toApiError } from '../../../runtime/errors/index.ts';
import { errorHandler } from '../../../runtime/http/index.ts';

/** What a client is answered when a handler throws `thrown` (toApiError, rendered by the error handler). */
const statusOf = async (thrown: unknown) => {
  const app = new Koa();
  app.use(errorHandler({ report: () => undefined }));
  app.use(() => {
    throw thrown;
  });
  const response = await request(app.callback()).get('/');
  return { status: response.status, ...(response.body.errors[0] as { code: string; message: string }) };
};

describe('what is thrown, as the client sees it', () => {
  it.each([
    ["a body parser's entity.too.large", { type: 'entity.too.large', status: 400 }],
    ['a 413 by status', { status: 413 }],
    ['a 413 by statusCode', { statusCode: 413 }],
  ])('%s: 413 payload_too_large', async (_name, thrown) => {
    expect(await statusOf(Object.assign(new Error('too big'), thrown))).toEqual({
      status: 413,
      code: 'payload_too_large',
      message: 'the request body is larger than the server accepts',
    });
  });

  it('an http-errors 4xx that may be shown keeps its status and message', async () => {
    expect(
      await statusOf(Object.assign(new Error('invalid JSON at position 3'), { status: 400, expose: true })),
    ).toEqual({ status: 400, code: 'bad_request', message: 'invalid JSON at position 3' });
    expect(await statusOf(Object.assign(new Error('gone'), { statusCode: 410, expose: true }))).toEqual({
      status: 410,
      code: 'bad_request',
      message: 'gone',
    });
  });

  it('a 4xx whose message is not for clients gets a generic one', async () => {
    expect(await statusOf(Object.assign(new Error('internal detail'), { status: 404 }))).toEqual({
      status: 404,
      code: 'bad_request',
      message: 'the request cannot be served',
    });
    expect(await statusOf(Object.assign(new Error('internal detail'), { status: 404, expose: 'yes' }))).toMatchObject({
      message: 'the request cannot be served',
    });
    expect(await statusOf({ status: 409, expose: true, message: 42 })).toMatchObject({
      status: 409,
      message: 'the request cannot be served',
    });
  });

  it.each([
    ['a status below 400', { status: 399, expose: true }],
    ['a 5xx status', { status: 502, expose: true }],
    ['a status of 500 exactly', { status: 500, expose: true }],
    ['a fractional status', { status: 404.5, expose: true }],
    ['no status', {}],
  ])('%s: 500 internal_error', async (_name, thrown) => {
    expect(await statusOf(Object.assign(new Error('secret detail'), thrown))).toEqual({
      status: 500,
      code: 'internal_error',
      message: 'the server failed to serve this request',
    });
  });

  it.each([
    ['a string', 'oops'],
    ['null', null],
    ['a number', 404],
  ])('%s thrown: 500 internal_error', async (_name, thrown) => {
    expect(await statusOf(thrown)).toMatchObject({ status: 500, code: 'internal_error' });
  });

  it('an ApiError is answered as it is, the very same error', async () => {
    const thrown = new ApiError(404, 'resource_not_found', 'there is no order 9', { resource: 'orders' });
    expect(toApiError(thrown)).toBe(thrown);
    expect(await statusOf(thrown)).toEqual({
      status: 404,
      code: 'resource_not_found',
      message: 'there is no order 9',
      resource: 'orders',
    });
  });

  it("a business rule's refusal keeps its status, code, message and field", async () => {
    expect(
      await statusOf(
        ruleUnprocessable('starts_in_past', 'a reservation cannot start in the past', { field: 'starts_at' }),
      ),
    ).toEqual({
      status: 422,
      code: 'starts_in_past',
      message: 'a reservation cannot start in the past',
      field: 'starts_at',
    });
  });

  it("a 500 keeps what was thrown as its cause, for the server's log", () => {
    const thrown = new Error('secret detail');
    const error = toApiError(thrown);
    expect(error.status).toBe(500);
    expect(error.cause).toBe(thrown);
  });

  it('the 4xx bounds: 400 and 499 are kept', async () => {
    expect(await statusOf({ status: 400 })).toMatchObject({ status: 400 });
    expect(await statusOf({ status: 499 })).toMatchObject({ status: 499 });
  });
});
