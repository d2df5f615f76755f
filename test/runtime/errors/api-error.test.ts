import { describe, expect, it } from 'vitest';
import {
  ApiError,
  badRequest,
  conflict,
  forbidden,
  httpVersionNotSupported,
  locked,
  MAX_ERROR_ENTRIES,
  methodNotAllowed,
  notAcceptable,
  notFound,
  notImplemented,
  payloadTooLarge,
  preconditionFailed,
  searchTimedOut,
  serviceUnavailable,
  tooManyRequests,
  unauthorized,
  unprocessable,
  unsupportedMediaType,
} from '../../../runtime/errors/index.ts';

const more = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ code: 'unknown_field', message: `k${index}`, field: `k${index}` }));

describe("ApiError: the conventions' error body", () => {
  it('the first entry carries code, message, resource, field and document, in that order, only when given', () => {
    const full = new ApiError(422, 'reference_not_found', 'order 9 does not exist', {
      resource: 'orders',
      field: 'order',
      document: 'https://docs.example/r',
    });
    expect(full.toBody()).toEqual({
      message: 'Unprocessable Entity',
      errors: [
        {
          code: 'reference_not_found',
          message: 'order 9 does not exist',
          resource: 'orders',
          field: 'order',
          document: 'https://docs.example/r',
        },
      ],
    });
    expect(Object.keys(full.toBody().errors[0]!)).toEqual(['code', 'message', 'resource', 'field', 'document']);
    expect(new ApiError(400, 'bad', 'no').toBody()).toEqual({
      message: 'Bad Request',
      errors: [{ code: 'bad', message: 'no' }],
    });
    expect(full).toMatchObject({
      status: 422,
      code: 'reference_not_found',
      field: 'order',
      resource: 'orders',
      document: 'https://docs.example/r',
      message: 'order 9 does not exist',
      name: 'ApiError',
    });
    expect(full.headers).toEqual({});
  });

  it('a status with no standard reason phrase has the title "Error"', () => {
    expect(new ApiError(599, 'odd', 'odd').toBody().message).toBe('Error');
  });

  it('refuses a code that is not lowercase words joined by underscores', () => {
    for (const code of [
      'Missing_field',
      'missing-field',
      '_missing',
      'missing_',
      'missing__field',
      '1st_error',
      'missing field',
      '',
    ]) {
      expect(() => new ApiError(400, code, 'x'), code).toThrow(
        `error code "${code}" is not lowercase_with_underscores`,
      );
    }
    for (const code of ['missing_field', 'a', 'error2', 'too_many_2'])
      expect(() => new ApiError(400, code, 'x')).not.toThrow();
  });

  it('keeps the cause for the log, and only when there is one', () => {
    const cause = new Error('root');
    expect(new ApiError(500, 'internal_error', 'x', { cause }).cause).toBe(cause);
    expect('cause' in new ApiError(500, 'internal_error', 'x')).toBe(false);
  });

  it(`lists up to ${MAX_ERROR_ENTRIES} entries, then one saying how many more were left out`, () => {
    const fits = new ApiError(400, 'unknown_field', 'first', { more: more(MAX_ERROR_ENTRIES - 1) });
    expect(fits.toBody().errors).toHaveLength(MAX_ERROR_ENTRIES);
    expect(fits.toBody().errors.at(-1)).toEqual({
      code: 'unknown_field',
      message: `k${MAX_ERROR_ENTRIES - 2}`,
      field: `k${MAX_ERROR_ENTRIES - 2}`,
    });

    const oneOver = new ApiError(400, 'unknown_field', 'first', { more: more(MAX_ERROR_ENTRIES) });
    expect(oneOver.toBody().errors).toHaveLength(MAX_ERROR_ENTRIES + 1);
    expect(oneOver.toBody().errors.at(-2)).toMatchObject({ message: `k${MAX_ERROR_ENTRIES - 2}` });
    expect(oneOver.toBody().errors.at(-1)).toEqual({
      code: 'more_errors',
      message: '1 more error of this request left out',
    });

    const many = new ApiError(400, 'unknown_field', 'first', { more: more(100) });
    expect(many.toBody().errors).toHaveLength(MAX_ERROR_ENTRIES + 1);
    expect(many.toBody().errors.at(-1)).toEqual({
      code: 'more_errors',
      message: `${100 - (MAX_ERROR_ENTRIES - 1)} more errors of this request left out`,
    });
  });

  it('hands out a body of its own each time: changing one changes neither the error nor the next body', () => {
    const error = new ApiError(400, 'bad', 'no', { more: more(1) });
    const body = error.toBody(() => 'https://docs.example/x');
    body.errors[0]!.message = 'changed';
    body.errors[1]!.message = 'changed';
    expect(error.toBody().errors.map((entry) => entry.message)).toEqual(['no', 'k0']);
    expect(error.entries.map((entry) => entry.message)).toEqual(['no', 'k0']);
    expect(error.toBody(() => undefined).errors).toEqual([
      { code: 'bad', message: 'no' },
      { code: 'unknown_field', message: 'k0', field: 'k0' },
    ]);
  });
});

describe('the named constructors', () => {
  it.each([
    [
      badRequest('missing_field', 'item is required', { field: 'item' }),
      400,
      'missing_field',
      'item is required',
      'item',
    ],
    [unauthorized('invalid_token', 'expired'), 401, 'invalid_token', 'expired', undefined],
    [forbidden('insufficient_scope', 'needs orders:write'), 403, 'insufficient_scope', 'needs orders:write', undefined],
    [notFound('not_found', 'no order 9', { resource: 'orders' }), 404, 'not_found', 'no order 9', undefined],
    [notAcceptable('only JSON'), 406, 'not_acceptable', 'only JSON', undefined],
    [conflict('duplicate_value', 'taken', { field: 'user_name' }), 409, 'duplicate_value', 'taken', 'user_name'],
    [preconditionFailed('changed since'), 412, 'precondition_failed', 'changed since', undefined],
    [
      payloadTooLarge(1024),
      413,
      'payload_too_large',
      'the request body is larger than the limit of 1024 bytes',
      undefined,
    ],
    [unsupportedMediaType('send JSON'), 415, 'unsupported_media_type', 'send JSON', undefined],
    [
      unprocessable('reference_not_found', 'no such order', { field: 'order' }),
      422,
      'reference_not_found',
      'no such order',
      'order',
    ],
    [locked('job_running', 'wait'), 423, 'job_running', 'wait', undefined],
    [
      tooManyRequests('slow down', { headers: { 'Retry-After': '3' } }),
      429,
      'rate_limit_exceeded',
      'slow down',
      undefined,
    ],
    [notImplemented('not yet'), 501, 'not_implemented', 'not yet', undefined],
    [serviceUnavailable('starting'), 503, 'service_unavailable', 'starting', undefined],
    [
      searchTimedOut(250),
      503,
      'search_timeout',
      'the search took longer than its budget of 250 ms and was stopped; search with more specific words, or again later',
      'q',
    ],
    [
      httpVersionNotSupported(),
      505,
      'http_version_not_supported',
      'the server speaks HTTP/1.0 and HTTP/1.1',
      undefined,
    ],
  ])('%#: status %i, code %s', (error, status, code, message, field) => {
    expect(error).toBeInstanceOf(ApiError);
    expect({ status: error.status, code: error.code, message: error.message, field: error.field }).toEqual({
      status,
      code,
      message,
      field,
    });
  });

  it('carry the options they are given and the headers their status needs', () => {
    expect(notFound('not_found', 'x', { resource: 'orders' }).resource).toBe('orders');
    expect(tooManyRequests('slow down', { headers: { 'Retry-After': '3' } }).headers).toEqual({ 'Retry-After': '3' });
    expect(httpVersionNotSupported().headers).toEqual({ Connection: 'close' });
    const notAllowed = methodNotAllowed(['GET', 'HEAD'], 'DELETE');
    expect(notAllowed).toMatchObject({
      status: 405,
      code: 'method_not_allowed',
      message: 'DELETE is not allowed here; allowed: GET, HEAD',
      headers: { Allow: 'GET, HEAD' },
    });
  });
});
