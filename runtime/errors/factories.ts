import { ApiError, type ApiErrorOptions } from './api-error.ts';

// Named constructors for the statuses the runtime uses, so call sites read as the failure they report.

export const badRequest = (code: string, message: string, options?: ApiErrorOptions) =>
  new ApiError(400, code, message, options);
export const unauthorized = (code: string, message: string, options?: ApiErrorOptions) =>
  new ApiError(401, code, message, options);
export const forbidden = (code: string, message: string, options?: ApiErrorOptions) =>
  new ApiError(403, code, message, options);
export const notFound = (code: string, message: string, options?: ApiErrorOptions) =>
  new ApiError(404, code, message, options);
export const methodNotAllowed = (allowed: readonly string[], method: string) =>
  new ApiError(405, 'method_not_allowed', `${method} is not allowed here; allowed: ${allowed.join(', ')}`, {
    headers: { Allow: allowed.join(', ') },
  });
export const notAcceptable = (message: string) => new ApiError(406, 'not_acceptable', message);
export const conflict = (code: string, message: string, options?: ApiErrorOptions) =>
  new ApiError(409, code, message, options);
export const preconditionFailed = (message: string) => new ApiError(412, 'precondition_failed', message);
export const payloadTooLarge = (limit: number) =>
  new ApiError(413, 'payload_too_large', `the request body is larger than the limit of ${limit} bytes`);
export const unsupportedMediaType = (message: string) => new ApiError(415, 'unsupported_media_type', message);
export const unprocessable = (code: string, message: string, options?: ApiErrorOptions) =>
  new ApiError(422, code, message, options);
export const locked = (code: string, message: string, options?: ApiErrorOptions) =>
  new ApiError(423, code, message, options);
export const tooManyRequests = (message: string, options?: ApiErrorOptions) =>
  new ApiError(429, 'rate_limit_exceeded', message, options);
export const notImplemented = (message: string, options?: ApiErrorOptions) =>
  new ApiError(501, 'not_implemented', message, options);
export const serviceUnavailable = (message: string) => new ApiError(503, 'service_unavailable', message);
/** A query parameter given twice: which of the two would count is a guess a client and a proxy may make differently. */
export const repeatedParameter = (name: string) =>
  new ApiError(400, 'repeated_parameter', `${name} is given more than once`, { field: name });
/** A search that ran past its time budget (SEARCH_TIMEOUT_MS): the query was stopped. */
export const searchTimedOut = (budgetMs: number) =>
  new ApiError(
    503,
    'search_timeout',
    `the search took longer than its budget of ${budgetMs} ms and was stopped; search with more specific words, or again later`,
    { field: 'q' },
  );
export const httpVersionNotSupported = () =>
  new ApiError(505, 'http_version_not_supported', 'the server speaks HTTP/1.0 and HTTP/1.1', {
    headers: { Connection: 'close' },
  });
